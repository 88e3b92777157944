#pragma once

#include <optional>
#include <string>
#include <vector>

#include "apikeys/plans.h"
#include "redis/pool.h"
#include "redis/script.h"

namespace petstore::apikeys {

struct KeyRecord {
  std::string id;
  Plan plan = Plan::Free;
  ratelimit::Limits limits;
  std::string name;  // the operator's label
  std::string created_at;
  std::optional<std::string> revoked_at;
};

// The issued keys, in the shared Redis: one hash per key at
// "<prefix>:apikey:{<id>}" (holding the key's SHA-256, never the key) and a
// sorted set "<prefix>:apikeys" of ids by issue time, for listing.
class KeyStore {
 public:
  KeyStore(redis::Pool& pool, std::string prefix);

  struct Issued {
    std::string key;  // the only time the key itself exists outside the client
    KeyRecord record;
  };
  Issued issue(Plan plan, const ratelimit::Limits& limits, const std::string& name);

  [[nodiscard]] std::optional<KeyRecord> find(const std::string& id);
  // Every issued key (revoked ones too), oldest first.
  [[nodiscard]] std::vector<KeyRecord> list();

  enum class Change { Done, NotFound, Revoked };
  Change replan(const std::string& id, Plan plan, const ratelimit::Limits& limits, KeyRecord& out);
  // Revoking is idempotent; the first revocation's time is kept.
  Change revoke(const std::string& id, KeyRecord& out);

 private:
  std::string index_key() const { return prefix_ + ":apikeys"; }

  redis::Pool& pool_;
  std::string prefix_;
  redis::Script update_;
};

}  // namespace petstore::apikeys
