#include "pets/domain/decide.h"

#include <gtest/gtest.h>

#include "pets/domain/errors.h"

namespace petstore::pets {
namespace {

Pet rex(PetStatus status = PetStatus::Available) {
  return Pet{.id = 7,
             .name = "Rex",
             .category_id = 3,
             .status = status,
             .version = 4,
             .created_at = "t0",
             .updated_at = "t1"};
}

DomainError::Kind kind_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const DomainError& e) {
    return e.kind();
  }
  ADD_FAILURE() << "no DomainError thrown";
  return DomainError::Kind::Invalid;
}

TEST(DecideCreatePet, DefaultsToAvailable) {
  const auto e = decide_create_pet(9, {.name = "Rex", .category_id = 3});
  EXPECT_EQ(e.id, 9);
  EXPECT_EQ(e.status, PetStatus::Available);
  EXPECT_EQ(e.category_id, 3);
}

TEST(DecideCreatePet, RefusesBadNames) {
  EXPECT_EQ(kind_of([] { decide_create_pet(1, {.name = "", .category_id = 3}); }),
            DomainError::Kind::Invalid);
  EXPECT_EQ(kind_of([] { decide_create_pet(1, {.name = "   ", .category_id = 3}); }),
            DomainError::Kind::Invalid);
  EXPECT_EQ(kind_of([] { decide_create_pet(1, {.name = std::string(101, 'a'), .category_id = 3}); }),
            DomainError::Kind::Invalid);
  EXPECT_EQ(kind_of([] { decide_create_pet(1, {.name = "a\nb", .category_id = 3}); }),
            DomainError::Kind::Invalid);
}

TEST(DecideCreatePet, CountsCharactersNotBytes) {
  std::string hundred_cats;
  for (int i = 0; i < 100; ++i) {
    hundred_cats += "\xF0\x9F\x90\x88";  // U+1F408, four bytes
  }
  EXPECT_NO_THROW(decide_create_pet(1, {.name = hundred_cats, .category_id = 3}));
  EXPECT_THROW(decide_create_pet(1, {.name = hundred_cats + "x", .category_id = 3}), DomainError);
}

TEST(DecideReplacePet, NoChangeMeansNoEvent) {
  EXPECT_FALSE(decide_replace_pet(rex(), {"Rex", 3, std::nullopt, std::nullopt}).has_value());
  EXPECT_FALSE(decide_replace_pet(rex(), {"Rex", 3, PetStatus::Available, std::nullopt}).has_value());
}

TEST(DecideReplacePet, KeepsStatusWhenAbsent) {
  const auto e = decide_replace_pet(rex(PetStatus::Pending), {"Max", 3, std::nullopt, std::nullopt});
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->status, PetStatus::Pending);
  EXPECT_EQ(e->name, "Max");
}

TEST(DecideReplacePet, EnforcesTheStateMachine) {
  EXPECT_EQ(kind_of([] {
              decide_replace_pet(rex(PetStatus::Sold), {"Rex", 3, PetStatus::Available, std::nullopt});
            }),
            DomainError::Kind::Conflict);
}

TEST(DecideChangeStatus, RecordsFromAndTo) {
  const auto e = decide_change_status(rex(), PetStatus::Pending);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->from, PetStatus::Available);
  EXPECT_EQ(e->to, PetStatus::Pending);
  EXPECT_FALSE(decide_change_status(rex(), PetStatus::Available).has_value());
}

TEST(DecideChangeStatus, IllegalTransitionIsAConflictWithItsCode) {
  try {
    decide_change_status(rex(PetStatus::Sold), PetStatus::Pending);
    FAIL();
  } catch (const DomainError& e) {
    EXPECT_EQ(e.kind(), DomainError::Kind::Conflict);
    EXPECT_EQ(e.code(), codes::kIllegalTransition);
  }
}

TEST(DecideCategory, DeleteRefusedWhilePetsUseIt) {
  const Category used{5, "Dogs", std::nullopt, 1, 2};
  EXPECT_EQ(kind_of([&] { decide_delete_category(used); }), DomainError::Kind::Conflict);
  const Category empty{5, "Dogs", std::nullopt, 1, 0};
  EXPECT_EQ(decide_delete_category(empty).id, 5);
}

TEST(DecideCategory, DescriptionLimitAndNoOp) {
  EXPECT_THROW(decide_create_category(1, {"Dogs", std::string(1001, 'd')}), DomainError);
  EXPECT_NO_THROW(decide_create_category(1, {"Dogs", std::string("line\nbreak\tok")}));
  const Category c{5, "Dogs", std::string("x"), 1, 0};
  EXPECT_FALSE(decide_replace_category(c, {"Dogs", std::string("x")}).has_value());
  EXPECT_TRUE(decide_replace_category(c, {"Dogs", std::nullopt}).has_value());
}

// A description (schema version 2) is part of the pet's state: setting or
// removing it is a change, and it is validated like a category's.
TEST(DecideReplacePet, ADescriptionIsPartOfTheState) {
  const auto set = decide_replace_pet(rex(), {"Rex", 3, std::nullopt, std::string("brown")});
  ASSERT_TRUE(set.has_value());
  EXPECT_EQ(set->description, "brown");
  auto described = rex();
  described.description = "brown";
  EXPECT_FALSE(
      decide_replace_pet(described, {.name = "Rex", .category_id = 3, .description = std::string("brown")})
          .has_value());
  const auto removed = decide_replace_pet(described, {.name = "Rex", .category_id = 3});
  ASSERT_TRUE(removed.has_value());
  EXPECT_FALSE(removed->description.has_value());
  EXPECT_EQ(kind_of([] {
              decide_create_pet(1, {.name = "Rex", .category_id = 3, .description = std::string(1001, 'a')});
            }),
            DomainError::Kind::Invalid);
}

}  // namespace
}  // namespace petstore::pets
