#include <gtest/gtest.h>

#include <set>

#include "apikeys/api_key.h"
#include "apikeys/plans.h"

namespace petstore::apikeys {
namespace {

TEST(ApiKey, NewKeysAreDistinctAndIdentifyToTheirDigest) {
  std::set<std::string> keys;
  for (int i = 0; i < 100; ++i) {
    const auto key = generate_key();
    ASSERT_EQ(key.size(), 36U);
    ASSERT_TRUE(key.starts_with("psk_"));
    keys.insert(key);
    const auto identity = identify(key);
    ASSERT_TRUE(identity);
    EXPECT_EQ(identity->digest.size(), 64U);
    EXPECT_EQ(identity->id, identity->digest.substr(0, 16));
    EXPECT_TRUE(is_key_id(identity->id));
  }
  EXPECT_EQ(keys.size(), 100U);
}

TEST(ApiKey, MalformedKeysAreNotIdentified) {
  EXPECT_FALSE(identify(""));
  EXPECT_FALSE(identify("psk_"));
  EXPECT_FALSE(identify("psk_0123456789abcdef0123456789abcde"));   // one digit short
  EXPECT_FALSE(identify("psk_0123456789ABCDEF0123456789abcdef"));  // upper case
  EXPECT_FALSE(identify("key_0123456789abcdef0123456789abcdef"));
  EXPECT_TRUE(identify("psk_0123456789abcdef0123456789abcdef"));
  EXPECT_FALSE(is_key_id("0123456789abcde"));
  EXPECT_FALSE(is_key_id("0123456789abcdeg"));
}

TEST(Plans, TheFixedPlansHaveTheSpecifiedLimits) {
  const auto free = fixed_limits(Plan::Free);
  ASSERT_TRUE(free);
  EXPECT_EQ(free->per_minute, 60);
  EXPECT_EQ(free->per_day, 1000);
  EXPECT_EQ(fixed_limits(Plan::Pro)->per_minute, 300);
  EXPECT_EQ(fixed_limits(Plan::Pro)->per_day, 10'000);
  EXPECT_EQ(fixed_limits(Plan::Business)->per_minute, 1000);
  EXPECT_EQ(fixed_limits(Plan::Business)->per_day, 100'000);
  EXPECT_FALSE(fixed_limits(Plan::Enterprise));
  EXPECT_EQ(parse_plan("business"), Plan::Business);
  EXPECT_EQ(plan_name(Plan::Enterprise), "enterprise");
  EXPECT_FALSE(parse_plan("Free"));
}

TEST(Plans, CustomLimitsMustBeUsable) {
  EXPECT_FALSE(invalid_limits({10, 100, 2, 10}));
  EXPECT_TRUE(invalid_limits({0, 100, 60, 86400}));
  EXPECT_TRUE(invalid_limits({101, 100, 60, 86400}));  // minute above day
  EXPECT_TRUE(invalid_limits({10, 100, 0, 86400}));
  EXPECT_TRUE(invalid_limits({10, 100, 60, 60}));  // long window not longer
  EXPECT_TRUE(invalid_limits({10, 100, 60, std::int64_t{40} * 86400}));
}

}  // namespace
}  // namespace petstore::apikeys
