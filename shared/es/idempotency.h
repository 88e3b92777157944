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

// Idempotency-Key support for creating requests, in Redis: a retry after
// success replays the stored response and appends nothing; a retry while
// the first is still running gets 409 request_in_progress; a retry after the
// first died (its lease ran out) runs again. The same key with a different
// body is 422. That at most one aggregate is ever created per key does not
// rest on this record, which Redis may lose: the single writer keeps the
// key's digest with the aggregate it created (es::AggregateWriter::create).
class IdempotencyStore {
 public:
  enum class Outcome { Fresh, Resumed, Replay };

  struct Claim {
    Outcome outcome = Outcome::Fresh;
    std::string key;
    std::string token;
    StoredResponse replay;
  };

  IdempotencyStore(redis::Pool& pool, std::chrono::milliseconds lease, std::chrono::hours ttl);

  Claim begin(const std::string& key, const std::string& fingerprint);
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
