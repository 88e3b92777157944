#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

namespace petstore::util {

// Hands a value from the thread that produces it to the threads of the same
// process that wait for it, by key. A waiter takes its ticket (expect())
// before it does what makes the value come, so an offer can never fall
// between its last look and its sleep; an offer nobody expects is dropped.
//
// A placing request waits here for its order's answer. The answer is
// recorded by the order's owner, the same replica that placed it, so it
// comes from this process unless the partition changed hands in between;
// for that case a waiter also asks `look` every `recheck`. Handed over in
// the process, the answer needs no round through Redis (a PUBLISH, a
// subscriber thread woken in every replica, two reads of the order).
template <class Key, class Value>
class Rendezvous {
  struct Slot {
    int tickets = 0;
    std::optional<Value> value;
    std::condition_variable offered;
  };

 public:
  Rendezvous() = default;
  Rendezvous(const Rendezvous&) = delete;
  Rendezvous& operator=(const Rendezvous&) = delete;

  // One waiter's claim on a key's value; the key is forgotten with its last
  // ticket.
  class Ticket {
   public:
    Ticket(Ticket&& other) noexcept
        : owner_(std::exchange(other.owner_, nullptr)), key_(std::move(other.key_)) {}
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    Ticket& operator=(Ticket&&) = delete;
    ~Ticket() {
      if (owner_ != nullptr) {
        owner_->release(key_);
      }
    }

    [[nodiscard]] const Key& key() const { return key_; }

    // The value offered since the ticket was taken, or, asked every
    // `recheck`, what `look` finds elsewhere (std::nullopt: nothing yet);
    // std::nullopt once `deadline` passes. `look` runs without the lock.
    template <class Look>
    std::optional<Value> wait_until(std::chrono::steady_clock::time_point deadline,
                                    std::chrono::steady_clock::duration recheck, Look&& look) {
      auto& r = *owner_;
      std::unique_lock lock(r.mutex_);
      auto& slot = r.slots_.at(key_);  // std::map: the node stays put while tickets hold it
      for (;;) {
        const auto now = std::chrono::steady_clock::now();
        if (slot.value || now >= deadline) {
          return slot.value;
        }
        if (slot.offered.wait_until(lock, std::min(deadline, now + recheck),
                                    [&] { return slot.value.has_value(); })) {
          return slot.value;
        }
        lock.unlock();
        auto found = look();
        lock.lock();
        if (found) {
          return found;
        }
      }
    }

   private:
    friend class Rendezvous;
    Ticket(Rendezvous& owner, Key key) : owner_(&owner), key_(std::move(key)) {}

    Rendezvous* owner_;
    Key key_;
  };

  [[nodiscard]] Ticket expect(Key key) {
    const std::lock_guard lock(mutex_);
    ++slots_[key].tickets;
    return Ticket(*this, std::move(key));
  }

  // Wakes the key's waiters with `value`. Returns whether anyone expected it.
  bool offer(const Key& key, const Value& value) {
    const std::lock_guard lock(mutex_);
    const auto it = slots_.find(key);
    if (it == slots_.end()) {
      return false;
    }
    it->second.value = value;
    it->second.offered.notify_all();
    return true;
  }

  // How many keys are expected: a test's view that tickets are given back.
  [[nodiscard]] std::size_t expected() const {
    const std::lock_guard lock(mutex_);
    return slots_.size();
  }

 private:
  void release(const Key& key) {
    const std::lock_guard lock(mutex_);
    if (const auto it = slots_.find(key); it != slots_.end() && --it->second.tickets == 0) {
      slots_.erase(it);
    }
  }

  mutable std::mutex mutex_;
  std::map<Key, Slot> slots_;
};

}  // namespace petstore::util
