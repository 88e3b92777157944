// The inventory service in the audit's checks (kind_module.h): its kind,
// and the stock rules, decided with the service's own domain: its decoding
// (inventory/domain/events.h) and ledger fold (inventory/domain/evolve.h).
#include <stdexcept>
#include <unordered_map>

#include "inventory/domain/events.h"
#include "inventory/domain/evolve.h"
#include "kind_module.h"
#include "util/overloaded.h"

namespace petstore::inventory {
namespace {

using audit::AuditEvent;
using audit::Findings;
using audit::report;
using State = Reservation::State;

constexpr auto kDecode = [](std::string_view type, const auto& data) { return decode(type, data); };

class InventoryChecker final : public audit::DecodingChecker<kDecode> {
 public:
  using DecodingChecker::DecodingChecker;

 private:
  void check(const AuditEvent& e, const Event& event, Findings& out) override {
    auto& ledger = ledgers_[e.subject];
    const auto recorded = [&](std::int64_t order) {
      const auto it = ledger.orders.find(order);
      return it == ledger.orders.end() ? State::None : it->second.state;
    };
    std::visit(Overloaded{
                   [&](const Reserved& r) {
                     answer(e, note(e, r.order_id)).inventory_reservations++;
                     if (const auto was = recorded(r.order_id); was != State::None) {
                       report(out, e, "reserved_twice",
                              "order " + std::to_string(r.order_id) + " was already " + to_string(was));
                     }
                   },
                   [&](const Refused& r) {
                     answer(e, note(e, r.order_id)).inventory_refusals++;
                     if (const auto was = recorded(r.order_id); was != State::None) {
                       report(out, e, "decided_twice",
                              "order " + std::to_string(r.order_id) + " was already " + to_string(was));
                     }
                   },
                   [&](const Released& r) {
                     note(e, r.order_id).inventory_releases++;
                     settle(e, recorded(r.order_id), r.order_id, out);
                   },
                   [&](const Consumed& r) {
                     note(e, r.order_id).inventory_consumptions++;
                     settle(e, recorded(r.order_id), r.order_id, out);
                   },
                   [&](const Tracked&) { saga().pets[e.subject].tracked = true; },
                   [](const auto&) {},
               },
               event);
    evolve(ledger, event, e.version, e.time);
    if (ledger.item.quantity < 0 || ledger.item.reserved < 0) {
      report(out, e, "negative_stock",
             "on hand " + std::to_string(ledger.item.quantity) + ", reserved " +
                 std::to_string(ledger.item.reserved));
    }
  }

  audit::SagaFacts::Order& note(const AuditEvent& e, std::int64_t order) {
    auto& facts = saga().orders[order];
    if (facts.inventory_at.topic.empty()) {
      facts.inventory_at = e.at;
    }
    return facts;
  }

  static audit::SagaFacts::Order& answer(const AuditEvent& e, audit::SagaFacts::Order& facts) {
    if (facts.answer_id.empty()) {
      facts.answer_id = e.id;
      facts.answer_time = e.time;
    }
    return facts;
  }

  // A release or consumption settles a reservation, once.
  static void settle(const AuditEvent& e, State was, std::int64_t order, Findings& out) {
    if (was == State::Released || was == State::Consumed) {
      report(out, e, "settled_twice", "order " + std::to_string(order) + " was already " + to_string(was));
    } else if (was != State::Reserved) {
      report(out, e, "settled_without_reservation",
             "order " + std::to_string(order) + " holds no reservation here (" + to_string(was) + ")");
    }
  }

  std::unordered_map<std::int64_t, Ledger> ledgers_;
};

}  // namespace

const audit::CheckModule& audit_checks() {
  static const audit::CheckModule kChecks{{{.name = "inventory",
                                            .topic = "petstore.inventory.v1",
                                            .target_flag = "--inventory",
                                            .source = "/petstore/inventory",
                                            .id_member = "petId",
                                            .subject = audit::SubjectForm::StoreId,
                                            .creates_id = false,
                                            .own_history = false,
                                            .references = {{"pet", ""}, {"order", "orderId"}}}},
                                          audit::make_checker<InventoryChecker>};
  return kChecks;
}

}  // namespace petstore::inventory
