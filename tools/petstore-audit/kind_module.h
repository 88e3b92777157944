#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "audit_event.h"
#include "json/event_fields.h"

namespace petstore::audit {

// What one order went through, as each side of the saga recorded it, and
// which pets the inventory tracks. The orders (pets) checker fills the first
// half and the inventory checker the second; verify compares them once the
// whole log is read, since the topics are not ordered with respect to each
// other.
struct SagaFacts {
  struct Order {
    Position placed_at;
    std::string placed_time;
    std::int64_t placed_timestamp_ms = 0;
    std::int64_t pet_id = 0;
    bool placed = false;
    std::string status;  // the order's last status
    int inventory_reservations = 0;
    int inventory_refusals = 0;
    int inventory_releases = 0;
    int inventory_consumptions = 0;
    Position inventory_at;  // the first inventory record for it
    // The inventory's first answer (reserved or refused) and the order's
    // outcome, by ce_id and ce_time: the answer binds the outcome
    // (docs/saga.md, "What the client sees").
    std::string answer_id;
    std::string answer_time;
    std::string outcome_id;
    std::string outcome_time;
    Position outcome_at;
    // The event that made the order cancelled or completed: the inventory
    // owes a release or a consumption from then on.
    Position settled_at;
    std::int64_t settled_timestamp_ms = 0;
  };
  std::map<std::int64_t, Order> orders;
  struct Pet {
    Position created_at;
    std::int64_t created_timestamp_ms = 0;
    bool created = false;
    bool tracked = false;  // the inventory recorded inventory.tracked for it
  };
  std::unordered_map<std::int64_t, Pet> pets;
};

// The rules of one aggregate kind, over that kind's events in partition
// order (so in per-aggregate order). Each decides with its own service's
// domain: its decoding, folds and state machines.
class KindChecker {
 public:
  virtual ~KindChecker() = default;
  // Only events whose version is above the aggregate's last one reach here
  // (duplicates are verify's finding); gaps do.
  virtual void on_event(const AuditEvent& e, Findings& out) = 0;
};

// The event's data decoded by the kind's own decoder (which throws
// std::invalid_argument), from the parsed data when the event still has it,
// or nullopt after an `undecodable` finding.
template <typename Decode>
auto decode_or_report(const AuditEvent& e, Findings& out, Decode decode)
    -> std::optional<decltype(decode(e.type, e.data))> {
  try {
    if (e.parsed != nullptr) {
      return decode(e.type, json::EventFields(*e.parsed));
    }
    return decode(e.type, e.data);
  } catch (const std::invalid_argument& ex) {
    report(out, e, "undecodable", ex.what());
    return std::nullopt;
  }
}

// The pets, orders and inventory checkers each fill their half of `saga`.
std::unique_ptr<KindChecker> make_pets_checker(SagaFacts& saga);  // pets and categories
std::unique_ptr<KindChecker> make_orders_checker(SagaFacts& saga);
std::unique_ptr<KindChecker> make_inventory_checker(SagaFacts& saga);
std::unique_ptr<KindChecker> make_apikeys_checker();

// One aggregate's events (all of one kind, in order) folded as the
// projection folds them: each decoded by the kind's own `decode` (type,
// data) and applied by its domain's `evolve`, found beside `State`.
template <typename State, typename Decode>
State fold_events(const std::vector<AuditEvent>& events, Decode decode) {
  State state;
  for (const auto& e : events) {
    evolve(state, decode(e.type, e.data), e.version, e.time);
  }
  return state;
}

// The state of one aggregate folded from its events (all of one kind, in
// order), as one JSON object, or null before its first event: what `as-of`
// prints. Events after a gap or duplicate are folded as the projection
// folds them.
std::string fold_pet_or_category(const std::vector<AuditEvent>& events);
std::string fold_order(const std::vector<AuditEvent>& events);
std::string fold_inventory(const std::vector<AuditEvent>& events);

}  // namespace petstore::audit
