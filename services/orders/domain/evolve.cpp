#include "orders/domain/evolve.h"

#include "util/overloaded.h"

namespace petstore::orders {

bool evolve(Order& o, const Event& event, std::int64_t version, const std::string& time) {
  if (version <= o.version) {
    return false;
  }
  std::visit(Overloaded{
                 [&](const OrderPlaced& e) {
                   o.id = e.id;
                   o.pet_id = e.pet_id;
                   o.quantity = e.quantity;
                   o.ship_date = e.ship_date;
                   o.status = OrderStatus::Placed;
                   o.created_at = time;
                 },
                 [&](const OrderReserved&) { o.status = OrderStatus::Reserved; },
                 [&](const OrderRejected& e) {
                   o.status = OrderStatus::Rejected;
                   o.rejection = e.reason;
                 },
                 [&](const OrderCompleted& e) {
                   o.status = OrderStatus::Completed;
                   o.ship_date = e.ship_date;
                 },
                 [&](const OrderCancelled&) { o.status = OrderStatus::Cancelled; },
             },
             event);
  o.version = version;
  o.updated_at = time;
  return true;
}

}  // namespace petstore::orders
