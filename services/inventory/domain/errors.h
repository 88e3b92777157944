#pragma once

#include "error/domain_error.h"

// Error codes of the inventory service; the README lists every code.
namespace petstore::inventory::codes {

inline constexpr const char* kItemNotFound = "inventory_item_not_found";

}  // namespace petstore::inventory::codes
