#include "redis/channel_waiters.h"

#include <spdlog/spdlog.h>

namespace petstore::redis {

namespace {

// The subscription's connection reads for as long as the channel is idle:
// with the reads' command timeout it would subscribe anew every second.
// Waiters recheck on their own, and the destructor wakes the read, so a long
// timeout only bounds how late a silently lost connection is replaced.
Endpoint subscription(Endpoint e) {
  e.command_timeout = std::chrono::seconds(30);
  return e;
}

}  // namespace

ChannelWaiters::ChannelWaiters(const Endpoint& endpoint, std::string channel,
                               std::chrono::milliseconds recheck)
    : endpoint_(endpoint), channel_(std::move(channel)), recheck_(recheck), listener_([this] { listen(); }) {}

ChannelWaiters::~ChannelWaiters() {
  stop_ = true;
  {
    const std::lock_guard lock(mutex_);
    for (auto& [message, w] : waiting_) {
      w.woken.notify_all();
    }
  }
  // Unblocks the listener's read at once (again until it has ended: a
  // listener still subscribing misses the first). When Redis is away, the
  // read ends within the connection's command timeout.
  try {
    Connection c(endpoint_);
    for (int i = 0; i < 40 && !ended_; ++i) {
      c.command({"PUBLISH", channel_, ""});
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  } catch (const std::exception&) {
  }
  listener_.join();
}

void ChannelWaiters::listen() {
  struct Ended {
    std::atomic<bool>& flag;
    ~Ended() { flag = true; }
  } ended{ended_};
  while (!stop_) {
    try {
      Connection c(subscription(endpoint_));
      expect_ok(c.command({"SUBSCRIBE", channel_}));
      while (!stop_) {
        Reply r;
        try {
          r = c.next_reply();
        } catch (const Unavailable&) {
          break;  // the read timed out (an idle channel) or Redis went away: subscribe anew
        }
        // ["message", channel, payload]
        if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 3) {
          continue;
        }
        const std::string message(as_string(*r->element[2]));
        const std::lock_guard lock(mutex_);
        if (const auto it = waiting_.find(message); it != waiting_.end()) {
          ++it->second.wakes;
          it->second.woken.notify_all();
        }
      }
    } catch (const std::exception& e) {
      if (!stop_) {
        spdlog::debug("redis: subscription to {} failed ({}); subscribing again", channel_, e.what());
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
  }
}

bool ChannelWaiters::wait_until(const std::string& message, std::chrono::steady_clock::time_point deadline,
                                const std::function<bool()>& done) {
  std::unique_lock lock(mutex_);
  auto& w = waiting_[message];
  ++w.waiters;
  bool result = false;
  for (;;) {
    // Registered before the check, so a message published after it wakes us.
    const auto seen = w.wakes;
    lock.unlock();
    result = done();
    lock.lock();
    const auto now = std::chrono::steady_clock::now();
    if (result || now >= deadline) {
      break;
    }
    w.woken.wait_until(lock, std::min(deadline, now + recheck_), [&] { return w.wakes != seen || stop_; });
  }
  if (--w.waiters == 0) {
    waiting_.erase(message);
  }
  return result;
}

}  // namespace petstore::redis
