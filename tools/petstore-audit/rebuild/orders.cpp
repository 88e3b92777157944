#include "orders/projection/orders_projection.h"
#include "rebuild/read_models.h"

namespace petstore::audit {

ReadModel orders_read_model(const std::string& prefix) {
  orders::OrderKeys keys(prefix);
  return {"orders", std::make_unique<orders::OrdersProjection>(orders::OrdersModel(keys)),
          orders::OrderKeys::not_from_log(), "", ""};
}

}  // namespace petstore::audit
