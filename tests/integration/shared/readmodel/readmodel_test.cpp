// readmodel::Lister and readmodel::history_page against the real Redis:
// cursor pages in id (or version) order, each item once, and a next cursor
// exactly while items may follow, also when entries are left out. The
// services' lists and histories use both (their API tests go through HTTP).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "readmodel/history.h"
#include "readmodel/list_page.h"
#include "redis/multiplexer.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

struct Named {
  std::int64_t id = 0;
  std::string name;
};

class ReadModelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (std::int64_t id = 1; id <= 5; ++id) {
      redis_command({"ZADD", index_, std::to_string(id), std::to_string(id)});
      redis_command({"HSET", prefix_ + std::to_string(id), "name", "n" + std::to_string(id), "hidden",
                     hidden_.contains(id) ? "1" : "0"});
    }
  }
  void TearDown() override { redis_wipe(base_); }

  readmodel::Page<Named> page(std::int64_t after, std::int64_t limit) {
    static constexpr std::array<std::string_view, 2> kFields = {"name", "hidden"};
    return lister_.page<Named>(index_, prefix_, kFields, {limit, after},
                               [](std::int64_t id, redisReply* const* v) -> std::optional<Named> {
                                 if (redis::as_string(*v[1]) == "1") {
                                   return std::nullopt;
                                 }
                                 return Named{id, std::string(redis::as_string(*v[0]))};
                               });
  }
  // Every page from the start, following the cursors: the ids listed, in order.
  std::vector<std::int64_t> follow(std::int64_t limit, int* pages = nullptr) {
    std::vector<std::int64_t> ids;
    std::int64_t after = 0;
    for (int n = 1; n <= 20; ++n) {
      const auto p = page(after, limit);
      for (const auto& item : p.items) {
        ids.push_back(item.id);
      }
      if (!p.next_cursor) {
        if (pages != nullptr) {
          *pages = n;
        }
        return ids;
      }
      EXPECT_GT(*p.next_cursor, after) << "a cursor moves forward";
      after = *p.next_cursor;
    }
    ADD_FAILURE() << "the cursors never ended";
    return ids;
  }

  redis::Multiplexer reads_{Stack::get().redis_endpoint()};
  readmodel::Lister lister_{reads_};
  std::string base_ = unique_name("readmodel") + ":";
  std::string index_ = base_ + "all";
  std::string prefix_ = base_ + "item:";
  std::set<std::int64_t> hidden_;
};

TEST_F(ReadModelTest, PagesFollowIdsWithTheirFieldsAndEndWithoutACursor) {
  const auto first = page(0, 2);
  ASSERT_EQ(first.items.size(), 2U);
  EXPECT_EQ(first.items[0].id, 1);
  EXPECT_EQ(first.items[0].name, "n1");
  EXPECT_EQ(first.items[1].id, 2);
  ASSERT_TRUE(first.next_cursor);
  EXPECT_EQ(*first.next_cursor, 2);

  int pages = 0;
  EXPECT_EQ(follow(2, &pages), (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(pages, 3);
  EXPECT_FALSE(page(0, 5).next_cursor) << "all five fit: nothing follows";
  EXPECT_TRUE(page(5, 2).items.empty());
}

class ReadModelWithLeftOutEntriesTest : public ReadModelTest {
 protected:
  ReadModelWithLeftOutEntriesTest() { hidden_ = {2, 3}; }
};

TEST_F(ReadModelWithLeftOutEntriesTest, APageShortOfLeftOutEntriesStillNamesTheNext) {
  // Ids 1, 2, 3 are fetched for a page of two; 2 and 3 are left out. Ids 4
  // and 5 follow them, so the short page must name a next one.
  const auto first = page(0, 2);
  ASSERT_EQ(first.items.size(), 1U);
  EXPECT_EQ(first.items[0].id, 1);
  ASSERT_TRUE(first.next_cursor) << "ids after the ones fetched were never listed";
  EXPECT_EQ(*first.next_cursor, 3) << "after the last id looked at, so 2 and 3 are not looked at again";

  EXPECT_EQ(follow(2), (std::vector<std::int64_t>{1, 4, 5}));
  EXPECT_EQ(follow(1), (std::vector<std::int64_t>{1, 4, 5}));
  EXPECT_EQ(follow(100), (std::vector<std::int64_t>{1, 4, 5}));
}

TEST_F(ReadModelTest, AHistoryPagesThroughVersionsAndAnUnknownAggregateHasNone) {
  const auto aggregate = base_ + "pet:9";
  for (int v = 1; v <= 3; ++v) {
    redis_command(
        {"ZADD", readmodel::history_key(aggregate), std::to_string(v), "event-" + std::to_string(v)});
  }
  const auto first = readmodel::history_page(reads_, aggregate, {2, 0});
  ASSERT_TRUE(first);
  EXPECT_EQ(first->items, (std::vector<std::string>{"event-1", "event-2"}));
  ASSERT_TRUE(first->next_cursor);
  EXPECT_EQ(*first->next_cursor, 2);

  const auto last = readmodel::history_page(reads_, aggregate, {2, 2});
  ASSERT_TRUE(last);
  EXPECT_EQ(last->items, (std::vector<std::string>{"event-3"}));
  EXPECT_FALSE(last->next_cursor);

  const auto beyond = readmodel::history_page(reads_, aggregate, {2, 3});
  ASSERT_TRUE(beyond) << "a known aggregate past its last version: an empty page";
  EXPECT_TRUE(beyond->items.empty());
  EXPECT_FALSE(readmodel::history_page(reads_, base_ + "pet:10", {20, 0})) << "no event names it";
}

}  // namespace
}  // namespace petstore::testing
