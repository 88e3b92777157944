#include "pets/domain/decide.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>

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

CategoryState dogs(std::map<std::int64_t, Admission> admitted = {}) {
  return {Category{5, "Dogs", std::nullopt, 1, 0}, std::move(admitted)};
}

PetsSeen seen(std::int64_t naming, std::set<std::int64_t> landed = {}) {
  return {[landed = std::move(landed)](const std::vector<PetAdmission>& admitted) {
            std::optional<std::int64_t> first;
            for (const auto& a : admitted) {
              if (!first && !landed.contains(a.pet_id)) {
                first = a.pet_id;
              }
            }
            return first;
          },
          [naming] { return naming; }};
}

TEST(DecideCategory, AdmitsPetsToAnExistingCategoryOnly) {
  const auto admitted = decide_admit_pets(dogs(), 5, {{7, 2}, {8, 1}});
  EXPECT_EQ(admitted.id, 5);
  EXPECT_EQ(admitted.pets, (std::vector<PetAdmission>{{7, 2}, {8, 1}}));
  EXPECT_EQ(kind_of([&] {
              decide_admit_pets(CategoryState{}, 5, {{7, 1}});
            }),
            DomainError::Kind::Unprocessable);
}

TEST(DecideCategory, DeleteRefusedWhilePetsUseIt) {
  EXPECT_EQ(kind_of([&] { decide_delete_category(dogs(), seen(2), 0, {}); }), DomainError::Kind::Conflict);
  EXPECT_EQ(decide_delete_category(dogs(), seen(0), 0, {}).id, 5);
}

// An admitted pet whose event the pets topic does not hold yet may still
// land until the window is past; one that landed is counted as any other.
TEST(DecideCategory, DeleteWaitsForAdmittedPetsOnTheirWay) {
  const AdmissionWindow window;
  const auto at = std::int64_t{1'000'000};
  const auto state = dogs({{7, Admission{1, at}}});
  const auto within = at + window.total().count() - 1;
  EXPECT_EQ(kind_of([&] { decide_delete_category(state, seen(0), within, window); }),
            DomainError::Kind::NotYet);
  EXPECT_EQ(decide_delete_category(state, seen(0, {7}), within, window).id, 5);
  EXPECT_EQ(kind_of([&] { decide_delete_category(state, seen(1, {7}), within, window); }),
            DomainError::Kind::Conflict);
  EXPECT_EQ(decide_delete_category(state, seen(0), at + window.total().count(), window).id, 5);
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
