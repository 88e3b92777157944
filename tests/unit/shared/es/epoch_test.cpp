// The single writer's epoch rule, as every reader of a partition applies it.
#include "es/epoch.h"

#include <gtest/gtest.h>

#include <optional>
#include <string_view>
#include <vector>

namespace petstore::es {
namespace {

using V = EpochRule::Verdict;
using std::nullopt;

// One record of a partition: its claim and epoch headers, what the rule
// says of it, and why.
struct Step {
  std::optional<std::string_view> claim;
  std::optional<std::string_view> epoch;
  V verdict;
  const char* why;
};

void replay(const std::vector<Step>& steps, std::int64_t final_epoch) {
  EpochRule r;
  for (const auto& s : steps) {
    EXPECT_EQ(r.next(s.claim, s.epoch), s.verdict) << s.why;
  }
  EXPECT_EQ(r.current(), final_epoch);
}

TEST(EpochRule, EventsBeforeAnyClaimAreOfEpochZero) {
  replay({{nullopt, nullopt, V::Counts, "an unstamped event"},
          {nullopt, "0", V::Counts, "epoch 0"},
          {nullopt, "1", V::Fenced, "no claim started epoch 1"}},
         0);
}

TEST(EpochRule, AClaimStartsAnEpochAndFencesTheOnesBefore) {
  replay({{"1", nullopt, V::Claimed, "the first owner"},
          {nullopt, "1", V::Counts, "its event"},
          {nullopt, nullopt, V::Fenced, "an unstamped event after a claim"},
          {"2", nullopt, V::Claimed, "a new owner"},
          {nullopt, "1", V::Fenced, "the replaced owner, resumed"},
          {nullopt, "2", V::Counts, "the new owner's event"},
          {nullopt, "3", V::Fenced, "an epoch nobody claimed"}},
         2);
}

TEST(EpochRule, AClaimAtOrBelowTheCurrentEpochIsStale) {
  replay({{"5", nullopt, V::Claimed, "a claim"},
          {"5", nullopt, V::StaleClaim, "two claimants raced; the first one won"},
          {"4", nullopt, V::StaleClaim, "a lower claim"},
          {nullopt, "5", V::Counts, "the winner's event"}},
         5);
}

TEST(EpochRule, MalformedEpochsNeverCount) {
  EpochRule r;
  EXPECT_EQ(r.next("x", nullopt), V::StaleClaim);
  EXPECT_EQ(r.next("-1", nullopt), V::StaleClaim);
  EXPECT_EQ(r.next("", nullopt), V::StaleClaim);
  EXPECT_EQ(r.next("1234567890123456789", nullopt), V::StaleClaim) << "19 digits";
  EXPECT_EQ(r.next(nullopt, "0x0"), V::Fenced);
  EXPECT_EQ(r.current(), 0);
  EXPECT_EQ(EpochRule::parse("007"), 7);
  EXPECT_EQ(EpochRule::parse(nullopt), nullopt);
}

}  // namespace
}  // namespace petstore::es
