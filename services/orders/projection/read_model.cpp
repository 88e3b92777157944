#include "orders/projection/read_model.h"

#include "orders/domain/errors.h"
#include "orders/projection/records.h"

namespace petstore::orders {

ReadModel::ReadModel(redis::Multiplexer& reads, OrderKeys keys)
    : reads_(reads), keys_(std::move(keys)), lister_(reads) {}

std::optional<Order> ReadModel::order(std::int64_t id) {
  const auto reply = reads_.command(readmodel::hmget(keys_.order(id), kOrderFields));
  return order_from(id, redis::expect_ok(reply).element);
}

readmodel::Page<std::string> ReadModel::order_history(std::int64_t id, const readmodel::PageRequest& page) {
  return readmodel::require_history(reads_, keys_.order(id), page, codes::kOrderNotFound,
                                    "order " + std::to_string(id) + " does not exist");
}

Order ReadModel::require_order(std::int64_t id) {
  auto found = order(id);
  if (!found) {
    throw DomainError(DomainError::Kind::NotFound, codes::kOrderNotFound,
                      "order " + std::to_string(id) + " does not exist");
  }
  return *std::move(found);
}

readmodel::Page<Order> ReadModel::orders(const OrderFilter& filter, const readmodel::PageRequest& page) {
  return lister_.page<Order>(keys_.index(filter.pet_id, filter.status, filter.complete), keys_.order_prefix(),
                             kOrderFields, page, order_from);
}

}  // namespace petstore::orders
