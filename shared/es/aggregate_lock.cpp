#include "es/aggregate_lock.h"

#include "embedded/lock_acquire.lua.h"
#include "embedded/lock_poison.lua.h"
#include "embedded/lock_release.lua.h"
#include "es/errc.h"
#include "events/envelope.h"
#include "log/log.h"
#include "util/backoff.h"

namespace petstore::es {

AggregateLock::AggregateLock(redis::Pool& pool, std::chrono::milliseconds lease,
                             std::chrono::milliseconds wait, std::string ready_key)
    : pool_(pool),
      lease_(lease),
      wait_(wait),
      ready_key_(std::move(ready_key)),
      acquire_(kLockAcquireLua),
      release_(kLockReleaseLua),
      poison_(kLockPoisonLua) {}

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
      throw Error(Errc::NotReady, "the read model is being rebuilt from the log");
    }
    if (redis::as_integer(*r.element[0]) != 1) {
      return false;  // element[1] is then the other holder's remaining lease
    }
    held.previous_holder_died = redis::as_integer(*r.element[1]) == 1;
    return true;
  });
  if (!taken) {
    throw Error(Errc::Busy, "another request is changing this resource; retry");
  }
  if (held.previous_holder_died) {
    log::warn("lock {}: previous holder's lease ran out; catching up before deciding", key);
  }
  return held;
}

void AggregateLock::release(const Held& held) noexcept {
  try {
    pool_.run_idempotent([&](redis::Connection& c) { return release_.run(c, {held.key}, {held.token}); });
  } catch (const std::exception& e) {
    // The lease runs out by itself; the next holder will then catch up.
    log::warn("lock {}: release failed: {}", held.key, e.what());
  }
}

void AggregateLock::poison(const Held& held) noexcept {
  try {
    pool_.run_idempotent([&](redis::Connection& c) { return poison_.run(c, {held.key}, {held.token}); });
  } catch (const std::exception& e) {
    log::warn("lock {}: poison failed: {}", held.key, e.what());
  }
}

}  // namespace petstore::es
