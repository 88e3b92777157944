#pragma once

#include <chrono>
#include <string>

#include "redis/pool.h"
#include "redis/script.h"

namespace petstore::es {

// Serialises commands on one aggregate across every replica. The lock value
// carries its holder's token and a lease deadline (Redis time). A holder that
// finishes deletes it; one that dies leaves it to go stale, and the next holder
// is told so (`previous_holder_died`), because the dead holder's event may be
// in the log but not yet in the read model: that holder must catch the
// projection up before deciding. docs/consistency.md explains why.
class AggregateLock {
 public:
  struct Held {
    std::string key;
    std::string token;
    bool previous_holder_died = false;
    // When the lease ends, by this process' clock: measured from before the
    // acquire request, so it is never later than the lease end Redis keeps.
    // Everything done under the lock must finish by then, or another holder
    // may take over while this one still acts.
    std::chrono::steady_clock::time_point lease_end;
  };

  // With a `ready_key` (es::KeySpace::ready_marker), the lock is only
  // handed out while the read model is ready, checked in the same script
  // that takes it: no command decides on a wiped or rebuilding read model.
  AggregateLock(redis::Pool& pool, std::chrono::milliseconds lease, std::chrono::milliseconds wait,
                std::string ready_key = {});

  // Waits (bounded) for the lock; es::Error(Busy) if it stays busy,
  // es::Error(NotReady) if the read model is not ready.
  Held acquire(const std::string& key);
  // Frees the lock after the command's event reached the read model.
  void release(const Held& held) noexcept;
  // Frees the lock but flags it stale, when the outcome of an append is
  // unknown: the next holder will then catch up first.
  void poison(const Held& held) noexcept;

 private:
  redis::Pool& pool_;
  std::chrono::milliseconds lease_;
  std::chrono::milliseconds wait_;
  std::string ready_key_;
  redis::Script acquire_;
  redis::Script release_;
  redis::Script poison_;
};

// Releases on scope exit unless the command marked the outcome.
class LockGuard {
 public:
  LockGuard(AggregateLock& lock, AggregateLock::Held held) : lock_(lock), held_(std::move(held)) {}
  ~LockGuard() {
    if (uncertain_) {
      lock_.poison(held_);
    } else {
      lock_.release(held_);
    }
  }
  LockGuard(const LockGuard&) = delete;
  LockGuard& operator=(const LockGuard&) = delete;

  [[nodiscard]] const AggregateLock::Held& held() const { return held_; }
  // The append's outcome is unknown (it may be in the log but not applied).
  void mark_uncertain() { uncertain_ = true; }

 private:
  AggregateLock& lock_;
  AggregateLock::Held held_;
  bool uncertain_ = false;
};

}  // namespace petstore::es
