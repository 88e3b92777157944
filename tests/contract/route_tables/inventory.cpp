#include "inventory/service.h"
#include "route_tables/route_table.h"

petstore::contract::Operations petstore::contract::inventory_operations() {
  return operations_of(inventory::InventoryService(offline_config("inventory"), inventory::Topics{}));
}
