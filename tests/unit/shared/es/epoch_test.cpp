// The single writer's epoch rule, as every reader of a partition applies it.
#include "es/epoch.h"

#include <gtest/gtest.h>

#include "support/epoch_cases.h"

namespace petstore::es {
namespace {

TEST(EpochRule, FollowsEveryCase) {
  for (const auto& c : testing::epoch_cases()) {
    EpochRule r;
    for (const auto& s : c.steps) {
      EXPECT_EQ(r.next(s.claim, s.epoch), s.verdict) << c.name << ": " << s.why;
    }
    EXPECT_EQ(r.current(), c.final_epoch) << c.name;
  }
}

TEST(EpochRule, ParsesDecimalEpochsOnly) {
  EXPECT_EQ(EpochRule::parse("007"), 7);
  EXPECT_EQ(EpochRule::parse("999999999999999999"), 999999999999999999);
  EXPECT_EQ(EpochRule::parse(std::nullopt), std::nullopt);
  EXPECT_EQ(EpochRule::parse("+1"), std::nullopt);
  EXPECT_EQ(EpochRule::parse("1 "), std::nullopt);
}

kafka::Message record(const char* topic, std::int32_t partition, std::vector<kafka::Header> headers) {
  kafka::Message m;
  m.topic = topic;
  m.partition = partition;
  m.headers = std::move(headers);
  return m;
}

TEST(Fences, KeepsOneRulePerPartition) {
  Fences f;
  EXPECT_EQ(f.next(record("t", 0, {{"petstore_claim", "3"}})), EpochRule::Verdict::Claimed);
  EXPECT_EQ(f.next(record("t", 1, {{"petstore_epoch", "3"}})), EpochRule::Verdict::Fenced)
      << "partition 1 has no claim";
  EXPECT_EQ(f.next(record("u", 0, {})), EpochRule::Verdict::Counts) << "another topic's partition 0";
  EXPECT_EQ(f.next(record("t", 0, {{"petstore_epoch", "3"}})), EpochRule::Verdict::Counts);
  EXPECT_EQ(f.current({"t", 0}), 3);
  EXPECT_EQ(f.current({"t", 1}), 0);
}

TEST(Fences, ResumesAtARecordedEpoch) {
  Fences f;
  f.resume({"t", 2}, 4);
  EXPECT_EQ(f.next(record("t", 2, {{"petstore_epoch", "4"}})), EpochRule::Verdict::Counts);
  EXPECT_EQ(f.next(record("t", 2, {})), EpochRule::Verdict::Fenced);
  EXPECT_EQ(f.next(record("t", 2, {{"petstore_claim", "4"}})), EpochRule::Verdict::StaleClaim);
}

TEST(FenceHeaders, AreReadByName) {
  const auto m = record("t", 0, {{"ce_id", "x"}, {"petstore_epoch", "2"}});
  const auto h = fence_headers(m);  // views into m
  EXPECT_EQ(h.claim, std::nullopt);
  EXPECT_EQ(h.epoch, "2");
}

}  // namespace
}  // namespace petstore::es
