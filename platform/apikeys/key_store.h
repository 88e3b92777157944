#pragma once

#include <optional>
#include <string>
#include <vector>

#include "apikeys/key_registry.h"
#include "apikeys/plans.h"
#include "es/command_path.h"
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
// a key each append an event to the keys topic (apikeys/events.h) through
// the shared command path, which applies it to the key registry (a
// projection: KeyRegistry) before answering, so the key works at once on
// every replica. Reads come from the registry: one hash per key at
// "<prefix>:apikey:{<id>}" (holding the key's SHA-256, never the key) and a
// sorted set "<prefix>:apikeys" of ids by issue time, for listing.
class KeyStore {
 public:
  KeyStore(es::CommandPath& path, KeyRegistry& registry, redis::Pool& pool, redis::Multiplexer& reads,
           std::string prefix, std::string topic);

  struct Issued {
    std::string key;  // the only time the key itself exists outside the client
    KeyRecord record;
  };
  Issued issue(Plan plan, const ratelimit::Limits& limits, const std::string& name);

  [[nodiscard]] std::optional<KeyRecord> find(const std::string& id);
  // Every issued key (revoked ones too), oldest first.
  [[nodiscard]] std::vector<KeyRecord> list();

  enum class Change { Done, NotFound, Revoked };
  // Under the key's lock, decided on the registry (decide_replan).
  Change replan(const std::string& id, Plan plan, const ratelimit::Limits& limits, KeyRecord& out);
  // Revoking is idempotent; the first revocation's time is kept.
  Change revoke(const std::string& id, KeyRecord& out);

  // One page of the key's events (CloudEvents JSON, version order), from
  // the registry's history projection; nullopt for a key no event names.
  [[nodiscard]] std::optional<readmodel::Page<std::string>> history(const std::string& id,
                                                                    const readmodel::PageRequest& page);

  [[nodiscard]] const std::string& topic() const { return topic_; }

 private:
  void commit(const KeyEvent& event, std::int64_t version, es::LockGuard* guard);

  es::CommandPath& path_;
  KeyRegistry& registry_;
  redis::Pool& pool_;
  redis::Multiplexer& reads_;
  std::string prefix_;
  std::string topic_;
};

}  // namespace petstore::apikeys
