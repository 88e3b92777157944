// redis::ChannelWaiters against Redis: a waiter wakes on its message and
// on no other, finds the state by its own check when a message is lost,
// and gives up at its deadline.
#include "redis/channel_waiters.h"

#include <gtest/gtest.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "support/stack.h"

namespace petstore::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

TEST(ChannelWaiters, AWaiterWakesOnItsMessageNotOnItsRecheck) {
  const auto channel = unique_name("settled");
  redis::ChannelWaiters waiters(Stack::get().redis_endpoint(), channel, 30s);
  std::atomic<bool> settled{false};
  std::thread publisher([&] {
    std::this_thread::sleep_for(300ms);  // the waiter is subscribed and waiting by then
    redis_command({"PUBLISH", channel, "other"});
    settled = true;
    redis_command({"PUBLISH", channel, "42"});
  });
  const auto started = Clock::now();
  EXPECT_TRUE(waiters.wait_until("42", started + 20s, [&] { return settled.load(); }));
  EXPECT_LT(Clock::now() - started, 5s) << "woken by the recheck, not the message";
  publisher.join();
}

// How often thread `tid` of this process has gone to sleep by itself.
long voluntary_switches(long tid) {
  std::ifstream status("/proc/self/task/" + std::to_string(tid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("voluntary_ctxt_switches:")) {
      return std::stol(line.substr(line.find(':') + 1));
    }
  }
  return -1;
}

// Every waiting request waits on one ChannelWaiters, and each order's
// message must wake only the requests waiting for it: with one condition
// for all, each message woke every waiter (docs/performance.md, "Each
// waiting request woken by its own message").
TEST(ChannelWaiters, OthersMessagesDoNotWakeAWaiter) {
  const auto channel = unique_name("settled");
  redis::ChannelWaiters waiters(Stack::get().redis_endpoint(), channel, 30s);
  std::atomic<long> tid{0};
  std::atomic<bool> mine{false};
  std::thread waiter([&] {
    tid = static_cast<long>(::syscall(SYS_gettid));
    EXPECT_TRUE(waiters.wait_until("mine", Clock::now() + 20s, [&] { return mine.load(); }));
  });
  std::atomic<int> woken{0};
  std::thread other([&] {  // someone waits for "other", so its messages are delivered
    waiters.wait_until("other", Clock::now() + 3s, [&] {
      ++woken;
      return false;
    });
  });
  std::this_thread::sleep_for(300ms);  // both are subscribed and waiting by then
  const auto before = voluntary_switches(tid);
  for (int i = 0; i < 40; ++i) {
    redis_command({"PUBLISH", channel, "other"});
    std::this_thread::sleep_for(5ms);  // one wake-up each, not one for several
  }
  std::this_thread::sleep_for(100ms);
  const auto after = voluntary_switches(tid);
  mine = true;
  redis_command({"PUBLISH", channel, "mine"});
  waiter.join();
  other.join();
  ASSERT_GE(before, 0);
  EXPECT_GE(woken.load(), 20) << "the other waiter was woken by its messages";
  EXPECT_LT(after - before, 5) << "woken by messages for another waiter";
}

TEST(ChannelWaiters, TheRecheckFindsAStateWhoseMessageWasLost) {
  redis::ChannelWaiters waiters(Stack::get().redis_endpoint(), unique_name("settled"), 50ms);
  std::atomic<bool> settled{false};
  std::thread later([&] {
    std::this_thread::sleep_for(200ms);
    settled = true;  // and nothing published
  });
  EXPECT_TRUE(waiters.wait_until("7", Clock::now() + 10s, [&] { return settled.load(); }));
  later.join();
}

TEST(ChannelWaiters, AWaiterGivesUpAtItsDeadlineWithTheLastCheck) {
  redis::ChannelWaiters waiters(Stack::get().redis_endpoint(), unique_name("settled"), 50ms);
  int checks = 0;
  const auto started = Clock::now();
  EXPECT_FALSE(waiters.wait_until("7", started + 300ms, [&] {
    ++checks;
    return false;
  }));
  const auto took = Clock::now() - started;
  EXPECT_GE(took, 300ms);
  EXPECT_LT(took, 2s);
  EXPECT_GE(checks, 3);
}

TEST(ChannelWaiters, StopsPromptly) {
  const auto started = Clock::now();
  { redis::ChannelWaiters waiters(Stack::get().redis_endpoint(), unique_name("settled")); }
  EXPECT_LT(Clock::now() - started, 900ms);
}

}  // namespace
}  // namespace petstore::testing
