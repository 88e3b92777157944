// The order rules, decided with the orders service's own domain: its decoding
// (orders/domain/events.h) and fold (orders/domain/evolve.h). The life cycle is the one
// domain/order.h documents: placed -> reserved | rejected (the inventory's
// answer, and nothing else); reserved -> completed | cancelled; the rest is
// final.
#include <stdexcept>
#include <unordered_map>

#include "json/writer.h"
#include "kind_module.h"
#include "orders/domain/events.h"
#include "orders/domain/evolve.h"

namespace petstore::audit {

namespace {

using namespace petstore::orders;

bool allowed(OrderStatus from, const Event& to) {
  switch (from) {
    case OrderStatus::Placed:
      return std::holds_alternative<OrderReserved>(to) || std::holds_alternative<OrderRejected>(to);
    case OrderStatus::Reserved:
      return std::holds_alternative<OrderCompleted>(to) || std::holds_alternative<OrderCancelled>(to);
    default:
      return false;
  }
}

class OrdersChecker final : public KindChecker {
 public:
  explicit OrdersChecker(SagaFacts& saga) : saga_(saga) {}

  void on_event(const AuditEvent& e, Findings& out) override {
    const auto decoded =
        decode_or_report(e, out, [](std::string_view t, const auto& d) { return decode(t, d); });
    if (!decoded) {
      return;
    }
    const Event& event = *decoded;
    const bool placed = std::holds_alternative<OrderPlaced>(event);
    if (placed != (e.version == 1)) {
      report(out, e, "creation_not_first",
             placed ? "a placement at version " + std::to_string(e.version) : "version 1 is not a placement");
    }
    auto& order = orders_[e.subject];
    if (!placed && order.version > 0 && !allowed(order.status, event)) {
      report(out, e, "illegal_transition",
             std::string(e.type) + " for an order that is " + std::string(to_string(order.status)));
      return;
    }
    evolve(order, event, e.version, e.time);
    auto& facts = saga_.orders[e.subject];
    if (placed) {
      facts.placed = true;
      facts.placed_at = e.at;
      facts.placed_time = e.time;
      facts.placed_timestamp_ms = e.timestamp_ms;
      facts.pet_id = order.pet_id;
    }
    if (std::holds_alternative<OrderReserved>(event) || std::holds_alternative<OrderRejected>(event)) {
      facts.outcome_id = e.id;
      facts.outcome_time = e.time;
      facts.outcome_at = e.at;
    }
    facts.status = std::string(to_string(order.status));
    if (std::holds_alternative<OrderCancelled>(event) || std::holds_alternative<OrderCompleted>(event)) {
      facts.settled_at = e.at;
      facts.settled_timestamp_ms = e.timestamp_ms;
    }
  }

 private:
  std::unordered_map<std::int64_t, Order> orders_;
  SagaFacts& saga_;
};

}  // namespace

std::unique_ptr<KindChecker> make_orders_checker(SagaFacts& saga) {
  return std::make_unique<OrdersChecker>(saga);
}

std::string fold_order(const std::vector<AuditEvent>& events) {
  const auto o =
      fold_events<Order>(events, [](std::string_view t, std::string_view d) { return decode(t, d); });
  if (o.version == 0) {
    return "null";
  }
  json::Writer w;
  w.begin_object().field("id", o.id).field("petId", o.pet_id).field("quantity", o.quantity);
  w.optional_field("shipDate", o.ship_date)
      .field("status", to_string(o.status))
      .field("complete", o.complete());
  if (o.rejection) {
    w.field("rejection", to_string(*o.rejection));
  }
  w.field("version", o.version)
      .field("createdAt", o.created_at)
      .field("updatedAt", o.updated_at)
      .end_object();
  return w.finish();
}

}  // namespace petstore::audit
