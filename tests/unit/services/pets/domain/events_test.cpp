#include "pets/domain/events.h"

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
  EXPECT_TRUE(testing::matches_published_schema(type_of(e), encode(e), schema_version_of(e)));
}

INSTANTIATE_TEST_SUITE_P(
    Pets, EveryEvent,
    ::testing::Values(
        Event{PetCreated{
            .id = 9007199254740991, .name = "Rex \"the\" ü", .category_id = 2, .status = PetStatus::Sold}},
        Event{PetCreated{.id = 5,
                         .name = "Rex",
                         .category_id = 2,
                         .status = PetStatus::Available,
                         .description = std::string("brown, \"loud\"")}},
        Event{PetUpdated{.id = 1, .name = "Max", .category_id = 3, .status = PetStatus::Pending}},
        Event{PetUpdated{.id = 1,
                         .name = "Max",
                         .category_id = 3,
                         .status = PetStatus::Pending,
                         .description = std::string("d")}},
        Event{PetStatusChanged{1, PetStatus::Available, PetStatus::Pending}}, Event{PetDeleted{1}},
        Event{CategoryCreated{2, "Dogs", std::string("d")}}, Event{CategoryCreated{2, "Dogs", std::nullopt}},
        Event{CategoryUpdated{2, "Hounds", std::nullopt}}, Event{CategoryDeleted{2}},
        Event{CategoryPetsAdmitted{2, {{1, 3}, {4, 1}}}}));

// Schema evolution (docs/events.md): a version 1 record, written before
// pets had descriptions, decodes as a pet without one and still matches the
// version 1 schema; version 2 adds the field and nothing else.
TEST(Events, ReadsVersionOneAndTwoOfPetCreatedSideBySide) {
  const std::string v1 = R"({"id":7,"name":"Rex","categoryId":2,"status":"available"})";
  EXPECT_TRUE(testing::matches_published_schema(PetCreated::kType, v1, 1));
  EXPECT_TRUE(testing::matches_published_schema(PetCreated::kType, v1, 2));
  const auto old = std::get<PetCreated>(decode(PetCreated::kType, v1));
  EXPECT_FALSE(old.description.has_value());
  const std::string v2 = R"({"id":7,"name":"Rex","categoryId":2,"status":"available","description":"d"})";
  EXPECT_FALSE(testing::matches_published_schema(PetCreated::kType, v2, 1));
  EXPECT_EQ(std::get<PetCreated>(decode(PetCreated::kType, v2)).description, "d");
  EXPECT_GE(schema_version_of(Event{old}), 2);  // what this code writes holds the description
  EXPECT_EQ(schema_version_of(Event{PetDeleted{7}}), 1);
}

TEST(Events, DecodeRefusesUnknownTypesAndBadPayloads) {
  EXPECT_THROW(decode("io.petstore.pet.adopted", R"({"id":1})"), std::invalid_argument);
  EXPECT_THROW(decode(PetDeleted::kType, "not json"), std::invalid_argument);
  EXPECT_THROW(decode(PetCreated::kType, R"({"id":1,"name":"x","categoryId":2,"status":"lost"})"),
               std::invalid_argument);
  EXPECT_THROW(decode(PetCreated::kType, R"({"id":"1","name":"x","categoryId":2,"status":"sold"})"),
               std::invalid_argument);
}

}  // namespace
}  // namespace petstore::pets
