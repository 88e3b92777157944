#include "apikeys/events.h"

#include <gtest/gtest.h>

#include "apikeys/api_key.h"
#include "support/event_schema.h"

namespace petstore::apikeys {
namespace {

KeyIssued issued(Plan plan = Plan::Pro) {
  const auto identity = identify(generate_key());
  return {identity->id, identity->digest, plan, *fixed_limits(plan), "a customer \"quoted\" ü"};
}

class EveryKeyEvent : public ::testing::TestWithParam<KeyEvent> {};

TEST_P(EveryKeyEvent, RoundTripsThroughJson) {
  const auto& e = GetParam();
  const auto back = decode(type_of(e), encode(e));
  EXPECT_EQ(encode(back), encode(e));
  EXPECT_EQ(subject_of(back), subject_of(e));
}

TEST_P(EveryKeyEvent, MatchesItsPublishedSchemaAndHoldsNoSecret) {
  const auto& e = GetParam();
  EXPECT_TRUE(testing::matches_published_schema(type_of(e), encode(e), kKeyEventSchemaVersion));
  EXPECT_EQ(encode(e).find("psk_"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    ApiKeys, EveryKeyEvent,
    ::testing::Values(
        KeyEvent{issued()}, KeyEvent{issued(Plan::Free)},
        KeyEvent{KeyIssued{"0123456789abcdef",
                           "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                           Plan::Enterprise, ratelimit::Limits{5, 10, 1, 2}, ""}},
        KeyEvent{KeyReplanned{"0123456789abcdef", Plan::Business, *fixed_limits(Plan::Business)}},
        KeyEvent{KeyReplanned{"0123456789abcdef", Plan::Enterprise, {1000, 1000000000, 60, 86400}}},
        KeyEvent{KeyRevoked{"0123456789abcdef"}}));

TEST(KeyEvents, DecodeRefusesWhatNoAdminApiCallWrites) {
  const std::string id = "0123456789abcdef";
  const std::string digest = id + std::string(48, 'a');
  const auto with = [&](const std::string& plan_fields) {
    return R"({"keyId":")" + id + R"(","digest":")" + digest + R"(",)" + plan_fields + R"(,"name":""})";
  };
  const std::string pro =
      R"("plan":"pro","perMinute":300,"perDay":10000,"minuteWindowSeconds":60,"dayWindowSeconds":86400)";
  EXPECT_NO_THROW(decode(KeyIssued::kType, with(pro)));
  // A fixed plan with other limits than its own; enterprise limits no admin
  // call accepts.
  for (
      const auto* plan :
      {R"("plan":"pro","perMinute":301,"perDay":10000,"minuteWindowSeconds":60,"dayWindowSeconds":86400)",
       R"("plan":"enterprise","perMinute":10,"perDay":5,"minuteWindowSeconds":60,"dayWindowSeconds":86400)"}) {
    EXPECT_THROW(decode(KeyIssued::kType, with(plan)), std::invalid_argument) << plan;
  }
  // A digest that is not the id's.
  EXPECT_THROW(decode(KeyIssued::kType, R"({"keyId":")" + id + R"(","digest":")" + std::string(64, 'b') +
                                            R"(",)" + pro + R"(,"name":""})"),
               std::invalid_argument);
  EXPECT_THROW(decode(KeyRevoked::kType, R"({"keyId":"0123456789ABCDEF"})"), std::invalid_argument);
  EXPECT_THROW(decode(KeyRevoked::kType, R"({"keyId":"psk_0123"})"), std::invalid_argument);
  EXPECT_THROW(decode("io.petstore.apikey.lost", R"({"keyId":"0123456789abcdef"})"), std::invalid_argument);
  EXPECT_THROW(decode(KeyRevoked::kType, "not json"), std::invalid_argument);
}

TEST(KeyDecisions, ReplanningNeedsALiveKey) {
  const auto limits = *fixed_limits(Plan::Business);
  EXPECT_EQ(decide_replan({0, false}, "k", Plan::Business, limits).refusal, Refusal::NotFound);
  EXPECT_EQ(decide_replan({3, true}, "k", Plan::Business, limits).refusal, Refusal::Revoked);
  const auto d = decide_replan({1, false}, "k", Plan::Business, limits);
  ASSERT_TRUE(d.event);
  EXPECT_FALSE(d.refusal);
  EXPECT_EQ(std::get<KeyReplanned>(*d.event).plan, Plan::Business);
}

TEST(KeyDecisions, RevokingIsIdempotentAndAppendsOnce) {
  EXPECT_EQ(decide_revoke({0, false}, "k").refusal, Refusal::NotFound);
  const auto first = decide_revoke({2, false}, "k");
  ASSERT_TRUE(first.event);
  EXPECT_TRUE(std::holds_alternative<KeyRevoked>(*first.event));
  const auto again = decide_revoke({3, true}, "k");
  EXPECT_FALSE(again.event);
  EXPECT_FALSE(again.refusal);
}

}  // namespace
}  // namespace petstore::apikeys
