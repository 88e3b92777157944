#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <httplib.h>

#include "inventory/domain/item.h"

namespace petstore::inventory {

// InventoryUpdate body: {"quantity": <int>}; 400 invalid_quantity when out of range.
std::int64_t parse_inventory_update(const httplib::Request& req);

std::string to_json(const Item& item);
std::string to_json(const std::vector<Item>& items);
std::string to_json(const std::map<PetStatus, std::int64_t>& summary);

}  // namespace petstore::inventory
