// The stock rules, decided with the inventory service's own domain: its
// decoding (inventory/domain/events.h) and ledger fold (inventory/domain/evolve.h).
#include <stdexcept>
#include <unordered_map>

#include "inventory/domain/events.h"
#include "inventory/domain/evolve.h"
#include "json/writer.h"
#include "kind_module.h"
#include "util/overloaded.h"

namespace petstore::audit {

namespace {

using namespace petstore::inventory;
using State = Reservation::State;

const char* name(State s) {
  switch (s) {
    case State::Reserved:
      return "reserved";
    case State::Refused:
      return "refused";
    case State::Released:
      return "released";
    case State::Consumed:
      return "consumed";
    default:
      return "none";
  }
}

class InventoryChecker final : public KindChecker {
 public:
  explicit InventoryChecker(SagaFacts& saga) : saga_(saga) {}

  void on_event(const AuditEvent& e, Findings& out) override {
    const auto decoded =
        decode_or_report(e, out, [](std::string_view t, const auto& d) { return decode(t, d); });
    if (!decoded) {
      return;
    }
    const Event& event = *decoded;
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
                              "order " + std::to_string(r.order_id) + " was already " + name(was));
                     }
                   },
                   [&](const Refused& r) {
                     answer(e, note(e, r.order_id)).inventory_refusals++;
                     if (const auto was = recorded(r.order_id); was != State::None) {
                       report(out, e, "decided_twice",
                              "order " + std::to_string(r.order_id) + " was already " + name(was));
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
                   [&](const Tracked&) { saga_.pets[e.subject].tracked = true; },
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

 private:
  SagaFacts::Order& note(const AuditEvent& e, std::int64_t order) {
    auto& facts = saga_.orders[order];
    if (facts.inventory_at.topic.empty()) {
      facts.inventory_at = e.at;
    }
    return facts;
  }

  static SagaFacts::Order& answer(const AuditEvent& e, SagaFacts::Order& facts) {
    if (facts.answer_id.empty()) {
      facts.answer_id = e.id;
      facts.answer_time = e.time;
    }
    return facts;
  }

  // A release or consumption settles a reservation, once.
  static void settle(const AuditEvent& e, State was, std::int64_t order, Findings& out) {
    if (was == State::Released || was == State::Consumed) {
      report(out, e, "settled_twice", "order " + std::to_string(order) + " was already " + name(was));
    } else if (was != State::Reserved) {
      report(out, e, "settled_without_reservation",
             "order " + std::to_string(order) + " holds no reservation here (" + name(was) + ")");
    }
  }

  std::unordered_map<std::int64_t, Ledger> ledgers_;
  SagaFacts& saga_;
};

}  // namespace

std::unique_ptr<KindChecker> make_inventory_checker(SagaFacts& saga) {
  return std::make_unique<InventoryChecker>(saga);
}

std::string fold_inventory(const std::vector<AuditEvent>& events) {
  const auto l =
      fold_events<Ledger>(events, [](std::string_view t, std::string_view d) { return decode(t, d); });
  if (l.item.version == 0) {
    return "null";
  }
  const auto& i = l.item;
  json::Writer w;
  w.begin_object()
      .field("petId", i.pet_id)
      .field("tracked", i.tracked)
      .field("petStatus", to_string(i.pet_status));
  w.field("quantity", i.quantity).field("reserved", i.reserved).field("status", to_string(i.status));
  w.field("version", i.version).field("updatedAt", i.updated_at);
  w.key("orders").begin_object();
  for (const auto& [order, r] : l.orders) {
    w.key(std::to_string(order))
        .begin_object()
        .field("state", name(r.state))
        .field("quantity", r.quantity)
        .end_object();
  }
  w.end_object().end_object();
  return w.finish();
}

}  // namespace petstore::audit
