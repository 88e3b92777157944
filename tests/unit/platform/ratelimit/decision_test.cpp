#include "ratelimit/decision.h"

#include <gtest/gtest.h>

namespace petstore::ratelimit {
namespace {

constexpr std::int64_t kNow = 1'795'000'030'400;  // 30.4 s into a minute
constexpr std::int64_t kMinuteEnd = 1'795'000'060'000;
constexpr std::int64_t kDayEnd = 1'795'046'400'000;

Counters counters(Counters::Verdict v, std::int64_t minute_used, std::int64_t day_used,
                  std::int64_t ban_ms = 0) {
  return {v, kNow, minute_used, day_used, kMinuteEnd, kDayEnd, ban_ms};
}

TEST(RateLimitDecision, TheWindowWithFewerRequestsLeftBinds) {
  const Limits free{60, 1000};
  auto d = decide(free, counters(Counters::Verdict::Admitted, 10, 500));
  EXPECT_EQ(d.limit, 60);
  EXPECT_EQ(d.remaining, 50);
  EXPECT_EQ(d.reset_unix, kMinuteEnd / 1000);
  EXPECT_EQ(d.retry_after, 0);
  d = decide(free, counters(Counters::Verdict::Admitted, 10, 990));
  EXPECT_EQ(d.limit, 1000);
  EXPECT_EQ(d.remaining, 10);
  EXPECT_EQ(d.reset_unix, kDayEnd / 1000);
}

TEST(RateLimitDecision, RetryAfterIsWhenEveryExhaustedWindowHasReset) {
  const Limits free{60, 1000};
  auto d = decide(free, counters(Counters::Verdict::Denied, 60, 500));
  EXPECT_EQ(d.remaining, 0);
  EXPECT_EQ(d.retry_after, 30);  // 29.6 s rounded up, never early
  d = decide(free, counters(Counters::Verdict::Denied, 60, 1000));
  EXPECT_EQ(d.retry_after, (kDayEnd - kNow + 999) / 1000);
}

TEST(RateLimitDecision, ABanTellsItsRemainingTime) {
  const auto d = decide(Limits{60, 1000}, counters(Counters::Verdict::Banned, 0, 0, 119'001));
  EXPECT_EQ(d.verdict, Counters::Verdict::Banned);
  EXPECT_EQ(d.retry_after, 120);
  // While banned nothing is admitted: no requests left until the ban ends.
  EXPECT_EQ(d.remaining, 0);
  EXPECT_EQ(d.reset_unix, (kNow + 119'001 + 999) / 1000);
  EXPECT_EQ(d.state, "\"minute\";r=0;t=120, \"day\";r=0;t=120");
}

TEST(RateLimitDecision, DraftHeadersListBothWindows) {
  const auto d = decide(Limits{300, 10000}, counters(Counters::Verdict::Admitted, 1, 1));
  EXPECT_EQ(d.policy, "\"minute\";q=300;w=60, \"day\";q=10000;w=86400");
  EXPECT_EQ(d.state,
            "\"minute\";r=299;t=30, \"day\";r=9999;t=" + std::to_string((kDayEnd - kNow + 999) / 1000));
}

}  // namespace
}  // namespace petstore::ratelimit
