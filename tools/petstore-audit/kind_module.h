#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
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

// The rules of a module's kinds over the events its own decoder reads:
// `check` sees each event that decodes, as kDecode(type, data) reads it
// (from the data already parsed, when the event has it); one that does not
// is an `undecodable` finding. `saga` is where the module notes its side of
// the saga.
template <auto kDecode>
class DecodingChecker : public KindChecker {
 public:
  using Event = decltype(kDecode(std::string_view{}, std::string_view{}));
  explicit DecodingChecker(SagaFacts& saga) : saga_(saga) {}

  void on_event(const AuditEvent& e, Findings& out) final {
    if (const auto event = decode_or_report(e, out, kDecode)) {
      check(e, *event, out);
    }
  }

 protected:
  virtual void check(const AuditEvent& e, const Event& event, Findings& out) = 0;
  SagaFacts& saga() { return saga_; }

 private:
  SagaFacts& saga_;
};

// A module's CheckModule::make_checker: its Checker, built on the facts.
template <typename Checker>
std::unique_ptr<KindChecker> make_checker(SagaFacts& saga) {
  return std::make_unique<Checker>(saga);
}

// What a module adds to the checks: its kinds, and one checker for all of
// them, which may fill its side of `saga`. Each service's
// services/<name>/audit/checks.cpp defines `const audit::CheckModule&
// <name>::audit_checks()`; the build lists them from services/services.txt
// (service_check_modules()), and kinds.cpp adds the platform's API keys.
struct CheckModule {
  std::vector<KindInfo> kinds;
  std::unique_ptr<KindChecker> (*make_checker)(SagaFacts& saga) = nullptr;
};

// The services' modules, in the order of services/services.txt (made by
// the build: cmake/Services.cmake), and every module, the keys' last.
const std::vector<const CheckModule*>& service_check_modules();
const CheckModule& keys_checks();  // the platform's API keys (kinds/apikeys.cpp)
const std::vector<const CheckModule*>& check_modules();

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

}  // namespace petstore::audit
