#pragma once

#include <cstdint>
#include <string>

namespace petstore::ratelimit {

// A plan's budget: requests per short window (a minute) and per long window
// (a day). Window lengths are settable for Enterprise plans (and test plans).
struct Limits {
  std::int64_t per_minute = 60;
  std::int64_t per_day = 1000;
  std::int64_t short_window_s = 60;
  std::int64_t long_window_s = 86400;
};

// What limit.lua reported for one request.
struct Counters {
  // Unknown and Revoked: the presented API key is not (or no longer) usable;
  // nothing was counted.
  enum class Verdict { Denied = 0, Admitted = 1, Banned = 2, Unknown = 3, Revoked = 4 };
  Verdict verdict = Verdict::Denied;
  std::int64_t now_ms = 0;
  std::int64_t minute_used = 0;
  std::int64_t day_used = 0;
  std::int64_t minute_end_ms = 0;
  std::int64_t day_end_ms = 0;
  std::int64_t ban_ms = 0;
};

// The answer the HTTP layer renders: the window that binds soonest for the
// X-RateLimit-* headers, both windows for RateLimit-Policy/RateLimit, and
// when to come back.
struct Decision {
  Counters::Verdict verdict = Counters::Verdict::Denied;
  std::int64_t ban_ms = 0;       // a ban's remaining time
  std::int64_t limit = 0;        // X-RateLimit-Limit
  std::int64_t remaining = 0;    // X-RateLimit-Remaining
  std::int64_t reset_unix = 0;   // X-RateLimit-Reset (unix seconds)
  std::int64_t retry_after = 0;  // seconds; 0 when admitted
  std::string policy;            // RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers-08)
  std::string state;             // RateLimit (same draft)
  std::string plan;              // the key's plan; empty for an address or an unknown key
};

// Pure: turns the script's counters into the headers' values. The binding
// window is the one with fewer requests left (on a tie, the one that resets
// first). Retry-After is the moment every exhausted window has reset (for a
// ban, its end), rounded up, so a client that waits it out is admitted.
Decision decide(const Limits& limits, const Counters& c);

// The RateLimit field while a ban has `seconds` left: nothing in either window.
std::string banned_state(std::int64_t seconds);

}  // namespace petstore::ratelimit
