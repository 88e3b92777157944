#include "ratelimit/limiter.h"

#include "apikeys/api_key.h"
#include "embedded/limit.lua.h"

namespace petstore::ratelimit {

Limiter::Limiter(redis::Multiplexer& redis, std::string prefix, BanPolicy ban,
                 std::chrono::milliseconds deadline)
    : redis_(redis), prefix_(std::move(prefix)), ban_(ban), deadline_(deadline), script_(kLimitLua) {}

Decision Limiter::check(const Subject& subject, const Limits& limits) {
  auto pending = start(subject, limits);
  return finish(pending);
}

Limiter::Pending Limiter::start(const Subject& subject, const Limits& limits) {
  std::vector<std::string> call{"EVALSHA",
                                script_.sha(),
                                "1",
                                subject.digest.empty() ? prefix_ + ":rl:{" + subject.tag + "}"
                                                       : apikeys::record_key(prefix_, subject.tag),
                                std::to_string(limits.per_minute),
                                std::to_string(limits.per_day),
                                std::to_string(limits.short_window_s),
                                std::to_string(limits.long_window_s),
                                subject.digest,
                                std::to_string(ban_.threshold),
                                std::to_string(ban_.within_s),
                                std::to_string(ban_.first_ban_s),
                                std::to_string(ban_.max_ban_s),
                                std::to_string(ban_.remember_s)};
  auto reply = redis_.submit(redis::Args(call.begin(), call.end()));
  return {std::move(call), std::move(reply), std::chrono::steady_clock::now() + deadline_};
}

Decision Limiter::finish(Pending& pending) {
  if (pending.reply_.wait_until(pending.give_up_) != std::future_status::ready) {
    throw redis::Unavailable("rate limiter: no answer from redis within " +
                             std::to_string(deadline_.count()) + " ms");
  }
  auto reply = pending.reply_.get();
  if (redis::is_noscript(*reply)) {
    // Redis lost its script cache (a restart): send the source once.
    pending.call_[0] = "EVAL";
    pending.call_[1] = script_.source();
    pending.reply_ = redis_.submit(redis::Args(pending.call_.begin(), pending.call_.end()));
    if (pending.reply_.wait_until(pending.give_up_) != std::future_status::ready) {
      throw redis::Unavailable("rate limiter: no answer from redis in time");
    }
    reply = pending.reply_.get();
  }
  const auto& r = redis::expect_ok(reply);
  Counters c;
  c.verdict = static_cast<Counters::Verdict>(redis::as_integer(*r.element[0]));
  if (c.verdict == Counters::Verdict::Unknown || c.verdict == Counters::Verdict::Revoked) {
    Decision d;
    d.verdict = c.verdict;
    return d;
  }
  c.now_ms = redis::as_integer(*r.element[1]);
  c.minute_used = redis::as_integer(*r.element[2]);
  c.day_used = redis::as_integer(*r.element[3]);
  c.minute_end_ms = redis::as_integer(*r.element[4]);
  c.day_end_ms = redis::as_integer(*r.element[5]);
  c.ban_ms = redis::as_integer(*r.element[6]);
  const Limits applied{redis::as_integer(*r.element[7]), redis::as_integer(*r.element[8]),
                       redis::as_integer(*r.element[9]), redis::as_integer(*r.element[10])};
  return decide(applied, c);
}

}  // namespace petstore::ratelimit
