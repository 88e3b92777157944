#pragma once

#include "error/domain_error.h"

// Error codes of the orders service; the README lists every code. A refused
// order's code is the inventory's reason (vocabulary/order_refusal.h).
namespace petstore::orders::codes {

inline constexpr const char* kOrderNotFound = "order_not_found";
inline constexpr const char* kIllegalTransition = "illegal_order_transition";
inline constexpr const char* kOrderAwaitingStock = "order_awaiting_stock";

}  // namespace petstore::orders::codes
