#include "inventory/projection/inventory_projection.h"

#include "embedded/apply.lua.h"

namespace petstore::inventory {

InventoryProjection::InventoryProjection(const InventoryKeys& keys)
    : DomainProjection(keys.space(), kInventoryApplyLua, "inventory", decode, aggregate_of) {}

}  // namespace petstore::inventory
