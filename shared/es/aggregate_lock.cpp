#include "es/aggregate_lock.h"

#include <spdlog/spdlog.h>

#include "error/api_error.h"
#include "error/codes.h"
#include "es/errors.h"
#include "events/envelope.h"
#include "util/backoff.h"

namespace petstore::es {
namespace {

// KEYS[1] lock, KEYS[2] (optional) the read model's ready marker;
// ARGV[1] token, ARGV[2] lease ms.
// Returns {1, died} when taken (died = 1 if a stale lock was taken over),
// {0, ms_left} when another holder's lease is still running, {2, 0} when the
// read model is not ready.
constexpr std::string_view kAcquire = R"(
if KEYS[2] and redis.call('EXISTS', KEYS[2]) == 0 then
  return {2, 0}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cur = redis.call('GET', KEYS[1])
local died = 0
if cur then
  local sep = string.find(cur, '|', 1, true)
  local lease_end = tonumber(string.sub(cur, sep + 1))
  if lease_end > now then
    return {0, lease_end - now}
  end
  died = 1
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. (now + tonumber(ARGV[2])), 'PX', 86400000)
return {1, died}
)";

constexpr std::string_view kRelease = R"(
local cur = redis.call('GET', KEYS[1])
if cur and string.sub(cur, 1, #ARGV[1] + 1) == ARGV[1] .. '|' then
  return redis.call('DEL', KEYS[1])
end
return 0
)";

// Keeps the key (so the next holder sees a dead lease) but ends the lease now.
constexpr std::string_view kPoison = R"(
local cur = redis.call('GET', KEYS[1])
if cur and string.sub(cur, 1, #ARGV[1] + 1) == ARGV[1] .. '|' then
  redis.call('SET', KEYS[1], ARGV[1] .. '|0', 'KEEPTTL')
  return 1
end
return 0
)";

}  // namespace

AggregateLock::AggregateLock(redis::Pool& pool, std::chrono::milliseconds lease,
                             std::chrono::milliseconds wait, std::string ready_key)
    : pool_(pool),
      lease_(lease),
      wait_(wait),
      ready_key_(std::move(ready_key)),
      acquire_(kAcquire),
      release_(kRelease),
      poison_(kPoison) {}

AggregateLock::Held AggregateLock::acquire(const std::string& key) {
  Held held{key, events::new_event_id(), false, {}};
  const auto lease = std::to_string(lease_.count());
  const auto give_up = std::chrono::steady_clock::now() + wait_;
  const bool taken = util::retry_until(give_up, std::chrono::microseconds(200), [&] {
    held.lease_end = std::chrono::steady_clock::now() + lease_;
    const auto reply = pool_.run_idempotent([&](redis::Connection& c) {
      return ready_key_.empty() ? acquire_.run(c, {key}, {held.token, lease})
                                : acquire_.run(c, {key, ready_key_}, {held.token, lease});
    });
    const auto& r = redis::expect_ok(reply);
    if (redis::as_integer(*r.element[0]) == 2) {
      throw NotReady("the read model is being rebuilt from the log");
    }
    if (redis::as_integer(*r.element[0]) != 1) {
      return false;  // element[1] is then the other holder's remaining lease
    }
    held.previous_holder_died = redis::as_integer(*r.element[1]) == 1;
    return true;
  });
  if (!taken) {
    throw ApiException(
        ApiError(409, codes::kConcurrentUpdate, "another request is changing this resource; retry")
            .retry_after(1));
  }
  if (held.previous_holder_died) {
    spdlog::warn("lock {}: previous holder's lease ran out; catching up before deciding", key);
  }
  return held;
}

void AggregateLock::release(const Held& held) noexcept {
  try {
    pool_.run_idempotent([&](redis::Connection& c) { return release_.run(c, {held.key}, {held.token}); });
  } catch (const std::exception& e) {
    // The lease runs out by itself; the next holder will then catch up.
    spdlog::warn("lock {}: release failed: {}", held.key, e.what());
  }
}

void AggregateLock::poison(const Held& held) noexcept {
  try {
    pool_.run_idempotent([&](redis::Connection& c) { return poison_.run(c, {held.key}, {held.token}); });
  } catch (const std::exception& e) {
    spdlog::warn("lock {}: poison failed: {}", held.key, e.what());
  }
}

}  // namespace petstore::es
