#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "apikeys/key_registry.h"
#include "apikeys/plans.h"
#include "apikeys/writer.h"
#include "projection/applier.h"
#include "readmodel/history.h"
#include "redis/multiplexer.h"
#include "redis/pool.h"

namespace petstore::apikeys {

struct KeyRecord {
  std::string id;
  Plan plan = Plan::Free;
  ratelimit::Limits limits;
  std::string name;  // the operator's label
  std::string created_at;
  std::optional<std::string> revoked_at;
  std::int64_t version = 0;  // of the key's events (ce_sequence)
};

// Key management as commands on the log: issuing, re-planning and revoking
// a key each are decided on the keys topic's single writer's fold and
// append an event there (apikeys/events.h, KeyWriter), fenced by the broker
// like every aggregate's. The event is applied to the key registry (a
// projection: KeyRegistry) before the command answers, so the key works at
// once on every replica. Reads come from the registry: one hash per key at
// "<prefix>:apikey:{<id>}" (holding the key's SHA-256, never the key) and a
// sorted set "<prefix>:apikeys" of ids by issue time, for listing.
class KeyStore {
 public:
  using OwnEvents = projection::OwnEvents<KeyModel>;
  KeyStore(KeyWriter& writer, const OwnEvents& own, KeyRegistry& registry, redis::Pool& pool,
           redis::Multiplexer& reads, std::string prefix, std::string topic);

  struct Issued {
    std::string key;  // the only time the key itself exists outside the client
    KeyRecord record;
  };
  Issued issue(Plan plan, const ratelimit::Limits& limits, const std::string& name);

  [[nodiscard]] std::optional<KeyRecord> find(const std::string& id);
  // Every issued key (revoked ones too), oldest first.
  [[nodiscard]] std::vector<KeyRecord> list();

  enum class Change { Done, NotFound, Revoked };
  // Decided on the writer's fold (decide_replan), on the replica that owns
  // the keys' partition (es::Error NotOwner elsewhere, which the platform
  // forwards there).
  Change replan(const std::string& id, Plan plan, const ratelimit::Limits& limits, KeyRecord& out);
  // Revoking is idempotent; the first revocation's time is kept.
  Change revoke(const std::string& id, KeyRecord& out);

  // One page of the key's events (CloudEvents JSON, version order), from
  // the registry's history projection; nullopt for a key no event names.
  [[nodiscard]] std::optional<readmodel::Page<std::string>> history(const std::string& id,
                                                                    const readmodel::PageRequest& page);

  [[nodiscard]] const std::string& topic() const { return topic_; }

 private:
  // Runs `decide` on key `id` through the writer, applies what it appended,
  // and gives the key as the writer folded it; `refused` says why nothing
  // was appended, when decide_* refused.
  KeyRecord run(const std::string& id, const std::function<KeyDecision(const KeyState&)>& decide,
                std::optional<Refusal>& refused);

  KeyWriter& writer_;
  const OwnEvents& own_;
  KeyRegistry& registry_;
  redis::Pool& pool_;
  redis::Multiplexer& reads_;
  std::string prefix_;
  std::string topic_;
};

}  // namespace petstore::apikeys
