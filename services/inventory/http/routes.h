#pragma once

#include "http/router.h"
#include "inventory/app/stock_commands.h"
#include "inventory/projection/read_model.h"

namespace petstore::inventory {

struct RouteDeps {
  StockCommands& stock;
  ReadModel& read;
};

// GET /store/inventory, GET /store/inventory/items,
// GET and PUT /store/inventory/items/{petId}.
void add_inventory_routes(http::Router& router, const RouteDeps& deps);

}  // namespace petstore::inventory
