// The rebuild's comparison of two read models, over hand-built snapshots.
#include "rebuild/compare.h"

#include <gtest/gtest.h>

namespace petstore::audit {
namespace {

KeyContent hash(std::map<std::string, std::string> fields) {
  return {"hash", std::move(fields)};
}

std::vector<std::string> lines(const std::vector<Difference>& ds) {
  std::vector<std::string> out;
  out.reserve(ds.size());
  for (const auto& d : ds) {
    out.push_back(d.key + ": " + d.detail);
  }
  return out;
}

TEST(RebuildCompare, EqualReadModelsHaveNoDifference) {
  const Snapshot s{{"pet:1", hash({{"name", "Rex"}, {"version", "2"}})},
                   {"pets:all", {"zset", {{"1", "1"}}}}};
  EXPECT_TRUE(compare("pets", s, s, {}).empty());
}

TEST(RebuildCompare, ReportsKeysFieldsMembersAndTypesOnEitherSide) {
  const Snapshot live{{"pet:1", hash({{"name", "Rex"}, {"status", "sold"}, {"extra", "x"}})},
                      {"pet:9", hash({{"name", "Ghost"}})},
                      {"pets:all", {"zset", {{"1", "1"}}}},
                      {"cat:counts", {"string", {{"", "3"}}}}};
  const Snapshot rebuilt{{"pet:1", hash({{"name", "Rex"}, {"status", "available"}})},
                         {"pet:2", hash({{"name", "Tom"}})},
                         {"pets:all", {"zset", {{"1", "1"}, {"2", "2"}}}},
                         {"cat:counts", {"hash", {{"5", "3"}}}}};
  EXPECT_EQ(lines(compare("pets", live, rebuilt, {})),
            (std::vector<std::string>{
                "cat:counts: type: live string, rebuilt hash",
                R"(pet:1: field "extra": only live ("x"))",
                R"(pet:1: field "status": live "sold", rebuilt "available")",
                "pet:2: only in the rebuilt read model (hash)",
                "pet:9: only in the live read model (hash)",
                R"(pets:all: member "2": only rebuilt ("2"))",
            }));
}

TEST(RebuildCompare, LeavesOutWhatTheLogDoesNotProduce) {
  es::NotFromLog n;  // as a model with a limiter's counters beside its records
  n.key_suffixes = {":window"};
  n.hash_fields = {"mw"};
  const Snapshot live{
      {"lock:pet:1", {"string", {{"", "token"}}}}, {"idem:pets:k", {"string", {{"", "1"}}}},
      {"proj:offsets", hash({{"t:0", "9"}})},      {"reactor:positions", hash({{"t:0", "9"}})},
      {"key:3:window", {"zset", {{"c", "1"}}}},    {"key:3", hash({{"plan", "free"}, {"mw", "123"}})}};
  const Snapshot rebuilt{{"proj:offsets", hash({{"t:0", "7"}})}, {"key:3", hash({{"plan", "free"}})}};
  EXPECT_TRUE(compare("keys", live, rebuilt, n).empty());
  // A counter is left out only as a hash's field; elsewhere it is data.
  const Snapshot zset_live{{"x", {"zset", {{"mw", "1"}}}}};
  const Snapshot zset_rebuilt{{"x", {"zset", {}}}};
  EXPECT_EQ(compare("keys", zset_live, zset_rebuilt, n).size(), 1U);
}

TEST(RebuildCompare, ListsAFewDetailsPerKeyAndCountsTheRest) {
  std::map<std::string, std::string> many;
  for (int i = 0; i < 25; ++i) {
    many[std::to_string(100 + i)] = std::to_string(100 + i);
  }
  const Snapshot live{{"pets:all", {"zset", many}}};
  const Snapshot rebuilt{{"pets:all", {"zset", {}}}};
  const auto ds = compare("pets", live, rebuilt, {}, 10);
  ASSERT_EQ(ds.size(), 11U);
  EXPECT_EQ(ds.back().detail, "and 15 more");
}

TEST(RebuildCompare, ShortensLongValues) {
  const Snapshot live{{"pet:1", hash({{"name", std::string(500, 'a')}})}};
  const Snapshot rebuilt{{"pet:1", hash({{"name", "b"}})}};
  const auto ds = compare("pets", live, rebuilt, {});
  ASSERT_EQ(ds.size(), 1U);
  EXPECT_LT(ds[0].detail.size(), 120U);
}

}  // namespace
}  // namespace petstore::audit
