// The orders service in the audit's checks (kind_module.h): its kind, and
// the order rules, decided with the service's own domain: its decoding
// (orders/domain/events.h) and fold (orders/domain/evolve.h). The life cycle is the one
// domain/order.h documents: placed -> reserved | rejected (the inventory's
// answer, and nothing else); reserved -> completed | cancelled; the rest is
// final.
#include <stdexcept>
#include <unordered_map>

#include "kind_module.h"
#include "orders/domain/events.h"
#include "orders/domain/evolve.h"

namespace petstore::orders {
namespace {

using audit::AuditEvent;
using audit::Findings;
using audit::report;

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

constexpr auto kDecode = [](std::string_view type, const auto& data) { return decode(type, data); };

class OrdersChecker final : public audit::DecodingChecker<kDecode> {
 public:
  using DecodingChecker::DecodingChecker;

 private:
  void check(const AuditEvent& e, const Event& event, Findings& out) override {
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
    auto& facts = saga().orders[e.subject];
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

  std::unordered_map<std::int64_t, Order> orders_;
};

}  // namespace

const audit::CheckModule& audit_checks() {
  static const audit::CheckModule kChecks{{{.name = "order",
                                            .topic = "petstore.orders.v1",
                                            .target_flag = "--order",
                                            .source = "/petstore/orders",
                                            .id_member = "id",
                                            .subject = audit::SubjectForm::StoreId,
                                            .creates_id = true,
                                            .own_history = true,
                                            .references = {{"pet", "petId"}}}},
                                          audit::make_checker<OrdersChecker>};
  return kChecks;
}

}  // namespace petstore::orders
