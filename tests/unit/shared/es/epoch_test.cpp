// The single writer's epoch rule, as every reader of a partition applies it.
#include "es/epoch.h"

#include <gtest/gtest.h>

namespace petstore::es {
namespace {

using V = EpochRule::Verdict;
using std::nullopt;

TEST(EpochRule, EventsBeforeAnyClaimAreOfEpochZero) {
  EpochRule r;
  EXPECT_EQ(r.next(nullopt, nullopt), V::Counts);
  EXPECT_EQ(r.next(nullopt, "0"), V::Counts);
  EXPECT_EQ(r.next(nullopt, "1"), V::Fenced) << "no claim started epoch 1";
  EXPECT_EQ(r.current(), 0);
}

TEST(EpochRule, AClaimStartsAnEpochAndFencesTheOnesBefore) {
  EpochRule r;
  EXPECT_EQ(r.next("1", nullopt), V::Claimed);
  EXPECT_EQ(r.next(nullopt, "1"), V::Counts);
  EXPECT_EQ(r.next(nullopt, nullopt), V::Fenced) << "an unstamped event after a claim";
  EXPECT_EQ(r.next("2", nullopt), V::Claimed);
  EXPECT_EQ(r.next(nullopt, "1"), V::Fenced) << "the replaced owner, resumed";
  EXPECT_EQ(r.next(nullopt, "2"), V::Counts);
  EXPECT_EQ(r.next(nullopt, "3"), V::Fenced) << "an epoch nobody claimed";
  EXPECT_EQ(r.current(), 2);
}

TEST(EpochRule, AClaimAtOrBelowTheCurrentEpochIsStale) {
  EpochRule r;
  EXPECT_EQ(r.next("5", nullopt), V::Claimed);
  EXPECT_EQ(r.next("5", nullopt), V::StaleClaim) << "two claimants raced; the first one won";
  EXPECT_EQ(r.next("4", nullopt), V::StaleClaim);
  EXPECT_EQ(r.next(nullopt, "5"), V::Counts);
  EXPECT_EQ(r.current(), 5);
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
