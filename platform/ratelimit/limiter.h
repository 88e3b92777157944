#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>

#include "ratelimit/decision.h"
#include "redis/multiplexer.h"
#include "redis/script.h"

namespace petstore::ratelimit {

// When a subject that keeps sending after 429 is banned, and for how long.
struct BanPolicy {
  int threshold = 10;      // denied requests ...
  int within_s = 60;       // ... within this many seconds start a ban
  int first_ban_s = 60;    // the first ban; each repeat offence doubles it
  int max_ban_s = 3600;    // up to this
  int remember_s = 86400;  // an offence counts as a repeat for this long
};

// Whose budget a request counts against: an API key (its id as the hash tag,
// its digest to check against the key's record) or, for a request without a
// usable key, the caller's address (empty digest).
struct Subject {
  std::string tag;
  std::string digest;
};

// The distributed limiter: one EVALSHA per request against the shared Redis,
// touching one hash per subject: an API key's record "<prefix>:apikey:{<id>}"
// (limits and counters) or an address's "<prefix>:rl:{addr:<ip>}".
class Limiter {
 public:
  // `deadline` bounds each check: past it, Unavailable.
  Limiter(redis::Multiplexer& redis, std::string prefix, BanPolicy ban,
          std::chrono::milliseconds deadline = std::chrono::milliseconds(100));

  // A check on its way (see start()).
  class Pending {
   public:
    // The decision; throws redis::Unavailable when Redis did not answer in time.
    Decision get();

   private:
    friend class Limiter;
    Pending(Limiter& owner, redis::Multiplexer::ScriptCall call) : owner_(&owner), call_(std::move(call)) {}
    Limiter* owner_;
    redis::Multiplexer::ScriptCall call_;
  };

  // For a key, the limits come from its record (`limits` is ignored) and the
  // verdict may be Unknown or Revoked; for an address, `limits` apply.
  // Throws redis::Unavailable when Redis does not answer in time.
  Decision check(const Subject& subject, const Limits& limits);
  // The same check, sent without waiting for it, so the caller's own Redis
  // reads can travel in the same round trip.
  Pending start(const Subject& subject, const Limits& limits);

  // Whether Redis answered a check within the last deadline. A caller that
  // overlaps its own reads with a check (the Gate) asks first: when Redis
  // hangs, those reads would wait for the connection's timeouts, longer than
  // the deadline, so then the check is made alone and fails within it. (After
  // an idle spell the answer is no as well: the first request checks alone.)
  [[nodiscard]] bool answering() const;

  // The connection checks travel on: a caller that holds a check back to
  // send it with its own reads corks this (redis::Multiplexer::Cork).
  [[nodiscard]] redis::Multiplexer& multiplexer() { return redis_; }

 private:
  // The script's key and arguments; `storage` holds the strings `args` views.
  std::string key_of(const Subject& subject) const;
  redis::Args arguments(const Subject& subject, const Limits& limits,
                        std::array<std::string, 4>& storage) const;
  static Decision read_reply(const redis::Reply& reply);

  redis::Multiplexer& redis_;
  std::string prefix_;
  std::array<std::string, 5> ban_args_;  // the policy as script arguments, formatted once
  std::chrono::milliseconds deadline_;
  redis::Script script_;
  std::atomic<std::int64_t> last_answer_ns_{0};  // steady clock
};

}  // namespace petstore::ratelimit
