// redis::ChannelWaiters against Redis: a waiter wakes on its message, finds
// the state by its own check when a message is lost, and gives up at its
// deadline.
#include "redis/channel_waiters.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
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
