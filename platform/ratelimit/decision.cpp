#include "ratelimit/decision.h"

#include <algorithm>

namespace petstore::ratelimit {
namespace {

std::int64_t ceil_seconds(std::int64_t ms) {
  return ms <= 0 ? 0 : (ms + 999) / 1000;
}

std::string window_state(const char* name, std::int64_t remaining, std::int64_t reset) {
  return "\"" + std::string(name) + "\";r=" + std::to_string(remaining) + ";t=" + std::to_string(reset);
}

}  // namespace

std::string banned_state(std::int64_t seconds) {
  return window_state("minute", 0, seconds) + ", " + window_state("day", 0, seconds);
}

Decision decide(const Limits& limits, const Counters& c) {
  Decision d;
  d.verdict = c.verdict;
  d.ban_ms = c.ban_ms;
  const auto minute_left = std::max<std::int64_t>(0, limits.per_minute - c.minute_used);
  const auto day_left = std::max<std::int64_t>(0, limits.per_day - c.day_used);
  const bool minute_binds =
      minute_left < day_left || (minute_left == day_left && c.minute_end_ms <= c.day_end_ms);
  d.limit = minute_binds ? limits.per_minute : limits.per_day;
  d.remaining = minute_binds ? minute_left : day_left;
  const auto reset_ms = minute_binds ? c.minute_end_ms : c.day_end_ms;
  d.reset_unix = ceil_seconds(reset_ms);

  if (c.verdict == Counters::Verdict::Banned) {
    d.retry_after = std::max<std::int64_t>(1, ceil_seconds(c.ban_ms));
  } else if (c.verdict == Counters::Verdict::Denied) {
    std::int64_t admit_at = c.now_ms;
    if (minute_left == 0) {
      admit_at = std::max(admit_at, c.minute_end_ms);
    }
    if (day_left == 0) {
      admit_at = std::max(admit_at, c.day_end_ms);
    }
    d.retry_after = std::max<std::int64_t>(1, ceil_seconds(admit_at - c.now_ms));
  }

  const auto minute_reset = ceil_seconds(c.minute_end_ms - c.now_ms);
  const auto day_reset = ceil_seconds(c.day_end_ms - c.now_ms);
  const auto window = [](const char* name, std::int64_t quota, std::int64_t seconds) {
    return "\"" + std::string(name) + "\";q=" + std::to_string(quota) + ";w=" + std::to_string(seconds);
  };
  d.policy = window("minute", limits.per_minute, limits.short_window_s) + ", " +
             window("day", limits.per_day, limits.long_window_s);
  d.state =
      window_state("minute", minute_left, minute_reset) + ", " + window_state("day", day_left, day_reset);
  if (c.verdict == Counters::Verdict::Banned) {
    // Nothing is admitted until the ban ends, whatever the windows hold.
    d.remaining = 0;
    d.reset_unix = ceil_seconds(c.now_ms + c.ban_ms);
    d.state = banned_state(d.retry_after);
  }
  return d;
}

}  // namespace petstore::ratelimit
