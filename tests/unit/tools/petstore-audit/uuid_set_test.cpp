#include "uuid_set.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace petstore::audit {
namespace {

TEST(UuidSet, AgreesWithStdSetThroughGrowthAndCollisions) {
  UuidSet set;
  std::set<UuidSet::Value> model;
  std::mt19937_64 random(7);
  // Few distinct values among many inserts, so most are repeats; some share
  // a half, and the all-zero value (the table's free mark) is among them.
  for (int i = 0; i < 200'000; ++i) {
    const UuidSet::Value v{random() % 50'000, (random() % 3) * 0x100000000ULL};
    ASSERT_EQ(set.insert(v), model.insert(v).second) << i;
  }
  EXPECT_EQ(set.size(), model.size());
  EXPECT_TRUE(set.insert({0, 0}) == model.insert({0, 0}).second);
  EXPECT_FALSE(set.insert({0, 0}));
  EXPECT_EQ(set.size(), model.size());
}

TEST(UuidSet, ReserveKeepsWhatIsThere) {
  UuidSet set;
  EXPECT_TRUE(set.insert({1, 2}));
  set.reserve(1'000'000);
  EXPECT_FALSE(set.insert({1, 2}));
  EXPECT_TRUE(set.insert({2, 1}));
  EXPECT_EQ(set.size(), 2U);
}

}  // namespace
}  // namespace petstore::audit
