#include "inventory/service.h"
#include "route_tables/route_table.h"

namespace petstore::contract {
namespace {

Operations operations() {
  return operations_of(inventory::InventoryService(offline_config("inventory"), inventory::Topics{}));
}

const RouteTable kTable(operations);

}  // namespace
}  // namespace petstore::contract
