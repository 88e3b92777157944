#include "util/backoff.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

namespace petstore::util {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Only lower bounds on the pauses: a loaded machine oversleeps, never
// undersleeps, so these cannot fail for being slow.

TEST(RetryUntil, AnAttemptThatSucceedsAtOnceIsMadeOnceAndNotWaitedOn) {
  int attempts = 0;
  const auto start = Clock::now();
  EXPECT_TRUE(retry_until(start + 10s, 100ms, [&] { return ++attempts == 1; }));
  EXPECT_EQ(attempts, 1);
  EXPECT_LT(Clock::now() - start, 100ms);  // the first pause was never slept
}

TEST(RetryUntil, PausesDoubleBetweenAttemptsUntilOneSucceeds) {
  std::vector<Clock::time_point> at;
  EXPECT_TRUE(retry_until(Clock::now() + 10s, 1ms, [&] {
    at.push_back(Clock::now());
    return at.size() == 5;
  }));
  ASSERT_EQ(at.size(), 5U);
  auto pause = 1ms;
  for (std::size_t i = 1; i < at.size(); ++i, pause *= 2) {
    EXPECT_GE(at[i] - at[i - 1], pause) << "before attempt " << i + 1;
  }
}

TEST(RetryUntil, GivesUpRatherThanPauseBeyondTheDeadline) {
  int attempts = 0;
  const auto start = Clock::now();
  // The second pause (2 ms) would end after the deadline: two attempts.
  EXPECT_FALSE(retry_until(start + 2500us, 1ms, [&] {
    ++attempts;
    return false;
  }));
  EXPECT_GE(attempts, 1);
  EXPECT_LE(attempts, 2);
  // A deadline already past: one attempt, no pause.
  attempts = 0;
  EXPECT_FALSE(retry_until(Clock::now() - 1s, 1ms, [&] { return ++attempts > 1; }));
  EXPECT_EQ(attempts, 1);
}

TEST(RetryUntil, APauseNeverGrowsBeyondTwentyMilliseconds) {
  // Pauses from 16 ms: capped, 16, 20, 20 (attempts at 0, 16, 36, 56 ms);
  // doubling, 16, 32, 64 (at 0, 16, 48, then 112 ms: past the deadline, so
  // it would give up after the third attempt).
  std::vector<Clock::time_point> at;
  const auto start = Clock::now();
  const bool done = retry_until(start + 80ms, 16ms, [&] {
    at.push_back(Clock::now());
    return at.size() == 4;
  });
  ASSERT_GE(at.size(), 3U);
  // The third attempt by 60 ms leaves room for a 20 ms pause, not a 64 ms
  // one. Later than that (a machine so loaded that its sleeps overran by
  // 24 ms), nothing is shown either way.
  if (at[2] - start <= 60ms) {
    EXPECT_TRUE(done);
    EXPECT_EQ(at.size(), 4U);
  }
}

}  // namespace
}  // namespace petstore::util
