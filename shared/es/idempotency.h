#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "redis/pool.h"
#include "redis/script.h"

namespace petstore::es {

// What a keyed request answered, kept so a retry gets the same answer.
struct StoredResponse {
  int status = 0;
  std::string body;
  std::string location;
  std::string etag;
};

// Idempotency-Key support for creating requests. The first request with a key
// reserves the id it will create under the key; a retry after success replays
// the stored response and appends nothing; a retry while the first is still
// running gets 409 request_in_progress; a retry after the first died (its
// lease ran out) resumes with the same reserved id, so at most one aggregate
// is ever created per key. The same key with a different body is 422.
class IdempotencyStore {
 public:
  enum class Outcome { Fresh, Resumed, Replay };

  struct Claim {
    Outcome outcome = Outcome::Fresh;
    std::string key;
    std::string token;
    std::int64_t reserved_id = 0;
    StoredResponse replay;
  };

  IdempotencyStore(redis::Pool& pool, std::chrono::milliseconds lease, std::chrono::hours ttl);

  Claim begin(const std::string& key, const std::string& fingerprint, std::int64_t proposed_id);
  void complete(const Claim& claim, const StoredResponse& response);
  // Forgets a claim whose request appended nothing, so a retry starts afresh.
  void abandon(const Claim& claim) noexcept;

 private:
  redis::Pool& pool_;
  std::chrono::milliseconds lease_;
  std::chrono::hours ttl_;
  redis::Script begin_;
  redis::Script complete_;
  redis::Script abandon_;
};

}  // namespace petstore::es
