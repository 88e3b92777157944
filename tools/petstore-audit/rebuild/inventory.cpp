#include "inventory/projection/inventory_projection.h"
#include "rebuild/read_models.h"

namespace petstore::audit {

ReadModel inventory_read_model(const std::string& prefix) {
  inventory::InventoryKeys keys(prefix);
  return {"inventory", std::make_unique<inventory::InventoryProjection>(inventory::InventoryModel(keys)),
          inventory::InventoryKeys::not_from_log(), "", ""};
}

}  // namespace petstore::audit
