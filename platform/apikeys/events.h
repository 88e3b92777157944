#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "apikeys/plans.h"
#include "events/event_type.h"

namespace petstore::apikeys {

// The facts of key management, on the keys topic (KAFKA_TOPIC_APIKEYS). The
// subject is the key's id (16 hex digits, as the admin API names it); `data`
// is the JSON encoding below, described by schemas/events/apikey.<kind>.json.
// The key itself never leaves the response that issued it: the event holds
// its SHA-256, which is all the limiter needs to recognise it.
struct KeyIssued {
  static constexpr std::string_view kType = "io.petstore.apikey.issued";
  std::string id;
  std::string digest;  // SHA-256 of the key, 64 hex digits
  Plan plan = Plan::Free;
  ratelimit::Limits limits;
  std::string name;
};
struct KeyReplanned {
  static constexpr std::string_view kType = "io.petstore.apikey.replanned";
  std::string id;
  Plan plan = Plan::Free;
  ratelimit::Limits limits;
};
struct KeyRevoked {
  static constexpr std::string_view kType = "io.petstore.apikey.revoked";
  std::string id;
};
using KeyEvent = std::variant<KeyIssued, KeyReplanned, KeyRevoked>;

inline constexpr int kKeyEventSchemaVersion = 1;

using events::type_of;  // each event's kType (events/event_type.h)
const std::string& subject_of(const KeyEvent& e);
std::string encode(const KeyEvent& e);
// Throws std::invalid_argument for an unknown type or a bad payload
// (including an id that is not a key id, a digest that does not start with
// it, or limits no plan allows).
KeyEvent decode(std::string_view type, std::string_view data);

// A key as its events make it: what the registry holds (KeyModel) and what
// the keys topic's single writer folds (apikeys/writer.h); nothing before
// it is issued.
struct Key {
  bool issued = false;
  std::string digest;
  std::string name;
  std::string created_at;
  Plan plan = Plan::Free;
  ratelimit::Limits limits;
  std::optional<std::string> revoked_at;
};
// Folds one of the key's events in, at its ce_time.
void evolve(Key& key, const KeyEvent& e, std::int64_t version, const std::string& time);

// What a key is, as far as the decisions below need to know.
struct KeyState {
  std::int64_t version = 0;  // 0: never issued
  bool revoked = false;
};

// The decisions on an issued key: pure, so the write path, its tests and
// the audit share them. Each says what to append, or why nothing is.
enum class Refusal { NotFound, Revoked };
struct KeyDecision {
  std::optional<KeyEvent> event;   // nothing to append when absent
  std::optional<Refusal> refusal;  // why, when it is a refusal
};
// Re-planning a revoked key is refused: a revoked key stays revoked.
KeyDecision decide_replan(const KeyState& state, const std::string& id, Plan plan,
                          const ratelimit::Limits& limits);
// Revoking is idempotent: a revoked key needs no second event.
KeyDecision decide_revoke(const KeyState& state, const std::string& id);

}  // namespace petstore::apikeys
