#include "orders/projection/orders_projection.h"

#include "orders/domain/evolve.h"
#include "orders/projection/records.h"

namespace petstore::orders {

Event OrdersModel::decode(const events::Envelope& envelope) const {
  return projection::decode_own_event(envelope, orders::decode, aggregate_of);
}

std::vector<projection::Command> OrdersModel::reads(const std::vector<const Event*>& batch) const {
  return {projection::hmget(key(*batch.front()), kOrderFields)};
}

OrdersModel::State OrdersModel::state(const std::vector<const Event*>& batch,
                                      std::span<const redis::Reply> replies) const {
  return order_from(aggregate_of(*batch.front()), replies.front()->element).value_or(Order{});
}

void OrdersModel::evolve(State& s, const Event& e, std::int64_t version, const std::string& time) const {
  (void)orders::evolve(s, e, version, time);
}

}  // namespace petstore::orders
