#include "domain/events.h"

#include <gtest/gtest.h>

#include "support/event_schema.h"

namespace petstore::pets {
namespace {

class EveryEvent : public ::testing::TestWithParam<Event> {};

TEST_P(EveryEvent, RoundTripsThroughJson) {
  const auto& e = GetParam();
  const auto back = decode(type_of(e), encode(e));
  EXPECT_EQ(encode(back), encode(e));
  EXPECT_EQ(aggregate_of(back), aggregate_of(e));
}

TEST_P(EveryEvent, MatchesItsPublishedSchema) {
  const auto& e = GetParam();
  EXPECT_TRUE(testing::matches_published_schema(type_of(e), encode(e)));
}

INSTANTIATE_TEST_SUITE_P(
    Pets, EveryEvent,
    ::testing::Values(Event{PetCreated{9007199254740991, "Rex \"the\" ü", 2, PetStatus::Sold}},
                      Event{PetUpdated{1, "Max", 3, PetStatus::Pending}},
                      Event{PetStatusChanged{1, PetStatus::Available, PetStatus::Pending}},
                      Event{PetDeleted{1}}, Event{CategoryCreated{2, "Dogs", std::string("d")}},
                      Event{CategoryCreated{2, "Dogs", std::nullopt}},
                      Event{CategoryUpdated{2, "Hounds", std::nullopt}}, Event{CategoryDeleted{2}}));

TEST(Events, DecodeRefusesUnknownTypesAndBadPayloads) {
  EXPECT_THROW(decode("io.petstore.pet.adopted", R"({"id":1})"), std::invalid_argument);
  EXPECT_THROW(decode(event_types::kPetDeleted, "not json"), std::invalid_argument);
  EXPECT_THROW(decode(event_types::kPetCreated, R"({"id":1,"name":"x","categoryId":2,"status":"lost"})"),
               std::invalid_argument);
  EXPECT_THROW(decode(event_types::kPetCreated, R"({"id":"1","name":"x","categoryId":2,"status":"sold"})"),
               std::invalid_argument);
}

}  // namespace
}  // namespace petstore::pets
