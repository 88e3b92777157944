#include "ratelimit/ban_cache.h"

#include <gtest/gtest.h>

namespace petstore::ratelimit {
namespace {

TEST(BanCache, RemembersABanUntilItEndsWithTheTimeLeft) {
  auto now = std::chrono::steady_clock::time_point{} + std::chrono::hours(1);
  BanCache cache([&now] { return now; });
  Decision banned;
  banned.verdict = Counters::Verdict::Banned;
  banned.ban_ms = 4000;
  banned.retry_after = 4;
  cache.remember("key", banned);

  now += std::chrono::milliseconds(1500);
  auto found = cache.find("key");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->ban_ms, 2500);
  EXPECT_EQ(found->retry_after, 3);  // rounded up: never earlier than the ban's end
  EXPECT_EQ(found->state, "\"minute\";r=0;t=3, \"day\";r=0;t=3");
  EXPECT_FALSE(cache.find("other"));

  now += std::chrono::milliseconds(2500);
  EXPECT_FALSE(cache.find("key"));
}

}  // namespace
}  // namespace petstore::ratelimit
