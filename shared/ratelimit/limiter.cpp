#include "ratelimit/limiter.h"

#include "embedded/limit.lua.h"

namespace petstore::ratelimit {

Limiter::Limiter(redis::Pool& pool, std::string prefix, BanPolicy ban)
    : pool_(pool), prefix_(std::move(prefix)), ban_(ban), script_(kLimitLua) {}

Decision Limiter::check(const std::string& key_id, const Limits& limits) {
  const auto base = prefix_ + ":rl:{" + key_id + "}:";
  const std::string keys[] = {base + "m", base + "d", base + "denials", base + "ban", base + "offences"};
  const std::string args[] = {std::to_string(limits.per_minute),   std::to_string(limits.per_day),
                              std::to_string(ban_.threshold),      std::to_string(ban_.within_s),
                              std::to_string(ban_.first_ban_s),    std::to_string(ban_.max_ban_s),
                              std::to_string(ban_.remember_s),     std::to_string(limits.short_window_s),
                              std::to_string(limits.long_window_s)};
  const auto reply = pool_.run([&](redis::Connection& c) {
    return script_.run(c, redis::Args(std::begin(keys), std::end(keys)),
                       redis::Args(std::begin(args), std::end(args)));
  });
  const auto& r = redis::expect_ok(reply);
  Counters c;
  c.verdict = static_cast<Counters::Verdict>(redis::as_integer(*r.element[0]));
  c.now_ms = redis::as_integer(*r.element[1]);
  c.minute_used = redis::as_integer(*r.element[2]);
  c.day_used = redis::as_integer(*r.element[3]);
  c.minute_end_ms = redis::as_integer(*r.element[4]);
  c.day_end_ms = redis::as_integer(*r.element[5]);
  c.ban_ms = redis::as_integer(*r.element[6]);
  return decide(limits, c);
}

}  // namespace petstore::ratelimit
