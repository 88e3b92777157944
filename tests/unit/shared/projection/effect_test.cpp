#include "projection/effect.h"

#include <gtest/gtest.h>

namespace petstore::projection {
namespace {

Record listed(const std::string& status) {
  Record r;
  r.fields = {{"status", status}, {"note", std::nullopt}};
  r.indexes = {{"all", "7"}, {"s:" + status, "7"}};
  r.counts = {{"counts", status}};
  return r;
}

TEST(Effect, SetsEveryFieldAndDeletesTheAbsentOnes) {
  const auto out = effect("k", "7", Record{}, listed("a"));
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out[0], (Command{"HSET", "k", "status", "a"}));
  EXPECT_EQ(out[1], (Command{"HDEL", "k", "note"}));
}

TEST(Effect, MovesOnlyTheIndexesAndCountsThatChange) {
  const auto out = effect("k", "7", listed("a"), listed("b"));
  const std::vector<Command> expected{{"HSET", "k", "status", "b"},
                                      {"HDEL", "k", "note"},
                                      {"ZREM", "s:a", "7"},
                                      {"ZADD", "s:b", "7", "7"},
                                      {"HINCRBY", "counts", "a", "-1"},
                                      {"HINCRBY", "counts", "b", "1"}};
  EXPECT_EQ(out, expected);
}

TEST(Effect, AScoreThatChangesIsWrittenAgain) {
  auto after = listed("a");
  after.indexes["all"] = "8";
  const auto out = effect("k", "7", listed("a"), after);
  EXPECT_EQ(out.back(), (Command{"ZADD", "all", "8", "7"}));
}

TEST(Effect, EntriesAreWrittenWhenTheyChangeAndOwnedKeysGoWithTheAggregate) {
  Record before;
  before.entries = {{{"orders", "1"}, "reserved:2"}, {{"orders", "2"}, "reserved:1"}};
  before.owned = {"claims"};
  Record after;
  after.entries = {{{"orders", "1"}, "reserved:2"}, {{"orders", "2"}, "released:1"}};
  const std::vector<Command> expected{{"HSET", "orders", "2", "released:1"}, {"DEL", "claims"}};
  EXPECT_EQ(effect("k", "7", before, after), expected);
}

}  // namespace
}  // namespace petstore::projection
