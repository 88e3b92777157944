#include "ratelimit/limiter.h"

#include "apikeys/api_key.h"
#include "embedded/limit.lua.h"

namespace petstore::ratelimit {

Limiter::Limiter(redis::Multiplexer& redis, std::string prefix, BanPolicy ban,
                 std::chrono::milliseconds deadline)
    : redis_(redis),
      prefix_(std::move(prefix)),
      ban_args_{std::to_string(ban.threshold), std::to_string(ban.within_s), std::to_string(ban.first_ban_s),
                std::to_string(ban.max_ban_s), std::to_string(ban.remember_s)},
      deadline_(deadline),
      script_(kLimitLua) {}

std::string Limiter::key_of(const Subject& subject) const {
  return subject.digest.empty() ? prefix_ + ":rl:{" + subject.tag + "}"
                                : apikeys::record_key(prefix_, subject.tag);
}

redis::Args Limiter::arguments(const Subject& subject, const Limits& limits,
                               std::array<std::string, 4>& storage) const {
  storage = {std::to_string(limits.per_minute), std::to_string(limits.per_day),
             std::to_string(limits.short_window_s), std::to_string(limits.long_window_s)};
  redis::Args args(storage.begin(), storage.end());
  args.emplace_back(subject.digest);
  args.insert(args.end(), ban_args_.begin(), ban_args_.end());
  return args;
}

Decision Limiter::read_reply(const redis::Reply& reply) {
  const auto& r = redis::expect_ok(reply);
  Counters c;
  c.verdict = static_cast<Counters::Verdict>(redis::as_integer(*r.element[0]));
  if (c.verdict == Counters::Verdict::Unknown || c.verdict == Counters::Verdict::Revoked) {
    Decision d;
    d.verdict = c.verdict;
    if (r.elements > 11) {
      d.plan = std::string(redis::as_string(*r.element[11]));
    }
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
  auto d = decide(applied, c);
  d.plan = std::string(redis::as_string(*r.element[11]));
  return d;
}

Limiter::Pending Limiter::start(const Subject& subject, const Limits& limits) {
  std::array<std::string, 4> storage;
  const auto key = key_of(subject);
  return {*this, redis_.submit_script(script_, {key}, arguments(subject, limits, storage))};
}

namespace {
std::int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

Decision Limiter::Pending::get() {
  auto reply = call_.get(owner_->deadline_);
  owner_->last_answer_ns_.store(steady_ns(), std::memory_order_relaxed);
  return read_reply(reply);
}

bool Limiter::answering() const {
  const auto since = std::chrono::nanoseconds(steady_ns() - last_answer_ns_.load(std::memory_order_relaxed));
  return since < deadline_;
}

Decision Limiter::check(const Subject& subject, const Limits& limits) {
  return start(subject, limits).get();
}

}  // namespace petstore::ratelimit
