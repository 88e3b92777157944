#pragma once

#include <string>

#include "ratelimit/decision.h"
#include "redis/pool.h"
#include "redis/script.h"

namespace petstore::ratelimit {

// When a key that keeps sending after 429 is banned, and for how long.
struct BanPolicy {
  int threshold = 10;      // denied requests ...
  int within_s = 60;       // ... within this many seconds start a ban
  int first_ban_s = 60;    // the first ban; each repeat offence doubles it
  int max_ban_s = 3600;    // up to this
  int remember_s = 86400;  // an offence counts as a repeat for this long
};

// The distributed limiter: one EVALSHA per request against the shared
// Redis, never retried (a resend could count a request twice). Keys:
// "<prefix>:rl:{<key id>}:<m|d|denials|ban|offences>".
class Limiter {
 public:
  Limiter(redis::Pool& pool, std::string prefix, BanPolicy ban);

  Decision check(const std::string& key_id, const Limits& limits);

 private:
  redis::Pool& pool_;
  std::string prefix_;
  BanPolicy ban_;
  redis::Script script_;
};

}  // namespace petstore::ratelimit
