#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "redis/connection.h"

namespace petstore::redis {

// Wakes the threads waiting for a message on one Redis channel: a
// connection of its own, SUBSCRIBEd on a thread of its own (reconnecting
// when it fails). A waiter names the message it waits for (an order's id,
// published when the order settles) and a check of the state itself: pub/sub
// delivers at most once, so the check, not the message, decides, and it is
// also made every `recheck` in case a message was lost.
class ChannelWaiters {
 public:
  ChannelWaiters(const Endpoint& endpoint, std::string channel,
                 std::chrono::milliseconds recheck = std::chrono::milliseconds(50));
  ~ChannelWaiters();
  ChannelWaiters(const ChannelWaiters&) = delete;
  ChannelWaiters& operator=(const ChannelWaiters&) = delete;

  // Until `done()` is true (checked first, then on each message equal to
  // `message` and every `recheck`) or `deadline` passes. Returns the last
  // check's answer.
  bool wait_until(const std::string& message, std::chrono::steady_clock::time_point deadline,
                  const std::function<bool()>& done);

 private:
  void listen();

  // One per message waited for, with a condition of its own: a message
  // wakes only its own waiters. One condition for all made every message
  // wake every waiting request (about 30 context switches an order at
  // c=32; docs/performance.md, "Each waiting request woken by its own
  // message").
  struct Waiting {
    int waiters = 0;
    std::uint64_t wakes = 0;  // messages received while someone waited
    std::condition_variable woken;
  };

  Endpoint endpoint_;
  std::string channel_;
  std::chrono::milliseconds recheck_;
  std::mutex mutex_;
  std::map<std::string, Waiting> waiting_;  // nodes stay put: waiters hold references
  std::atomic<bool> stop_{false};
  std::atomic<bool> ended_{false};  // the listener has returned
  std::thread listener_;
};

}  // namespace petstore::redis
