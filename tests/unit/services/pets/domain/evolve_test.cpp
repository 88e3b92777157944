#include "pets/domain/evolve.h"

#include <gtest/gtest.h>

namespace petstore::pets {
namespace {

TEST(Evolve, FoldsAPetsLife) {
  Catalogue s;
  EXPECT_TRUE(evolve(s, CategoryCreated{1, "Dogs", std::nullopt}, 1, "t1"));
  EXPECT_TRUE(evolve(s, PetCreated{.id = 2, .name = "Rex", .category_id = 1, .status = PetStatus::Available},
                     1, "t2"));
  EXPECT_EQ(s.categories[1].pet_count, 1);
  EXPECT_TRUE(evolve(s, PetStatusChanged{2, PetStatus::Available, PetStatus::Pending}, 2, "t3"));
  EXPECT_EQ(s.pets[2].status, PetStatus::Pending);
  EXPECT_EQ(s.pets[2].version, 2);
  EXPECT_EQ(s.pets[2].created_at, "t2");
  EXPECT_EQ(s.pets[2].updated_at, "t3");
  EXPECT_TRUE(evolve(s, PetDeleted{2}, 3, "t4"));
  EXPECT_FALSE(s.pets.contains(2));
  EXPECT_EQ(s.categories[1].pet_count, 0);
}

TEST(Evolve, DuplicatesAndOldEventsChangeNothing) {
  Catalogue s;
  evolve(s, CategoryCreated{1, "Dogs", std::nullopt}, 1, "t");
  evolve(s, PetCreated{.id = 2, .name = "Rex", .category_id = 1, .status = PetStatus::Available}, 1, "t");
  EXPECT_FALSE(evolve(s, PetCreated{.id = 2, .name = "Rex", .category_id = 1, .status = PetStatus::Available},
                      1, "t"));
  EXPECT_EQ(s.categories[1].pet_count, 1);
  evolve(s, PetDeleted{2}, 2, "t");
  // A redelivered create must not resurrect a deleted pet.
  EXPECT_FALSE(evolve(s, PetCreated{.id = 2, .name = "Rex", .category_id = 1, .status = PetStatus::Available},
                      1, "t"));
  EXPECT_FALSE(s.pets.contains(2));
}

TEST(Evolve, MovingAPetMovesTheCount) {
  Catalogue s;
  evolve(s, CategoryCreated{1, "Dogs", std::nullopt}, 1, "t");
  evolve(s, CategoryCreated{2, "Cats", std::nullopt}, 1, "t");
  evolve(s, PetCreated{.id = 3, .name = "Rex", .category_id = 1, .status = PetStatus::Available}, 1, "t");
  evolve(s, PetUpdated{.id = 3, .name = "Rex", .category_id = 2, .status = PetStatus::Available}, 2, "t");
  EXPECT_EQ(s.categories[1].pet_count, 0);
  EXPECT_EQ(s.categories[2].pet_count, 1);
}

}  // namespace
}  // namespace petstore::pets

namespace petstore::pets {
namespace {

TEST(Evolve, PetCountsDoNotDependOnTopicOrder) {
  // Replaying two topics gives no order between a pet and its category.
  Catalogue s;
  evolve(s, PetCreated{.id = 3, .name = "Rex", .category_id = 1, .status = PetStatus::Available}, 1, "t");
  evolve(s, CategoryCreated{1, "Dogs", std::nullopt}, 1, "t");
  EXPECT_EQ(s.categories[1].pet_count, 1);
}

// One pet's fold, as the pets topic's single writer keeps it: the same pet
// the Catalogue holds after the same events, and none once deleted.
TEST(Evolve, OnePetsFoldIsTheCataloguesPet) {
  const std::vector<Event> life{
      PetCreated{.id = 2, .name = "Rex", .category_id = 1, .status = PetStatus::Available},
      PetUpdated{.id = 2,
                 .name = "Max",
                 .category_id = 4,
                 .status = PetStatus::Available,
                 .description = "a good dog"},
      PetStatusChanged{2, PetStatus::Available, PetStatus::Sold}};
  Catalogue s;
  std::optional<Pet> pet;
  std::int64_t version = 0;
  for (const auto& e : life) {
    ++version;
    const auto time = "t" + std::to_string(version);
    evolve(s, e, version, time);
    evolve(pet, e, version, time);
    ASSERT_TRUE(pet.has_value());
    EXPECT_EQ(*pet, s.pets.at(2)) << "after version " << version;
  }
  EXPECT_EQ(pet->created_at, "t1");
  EXPECT_EQ(pet->updated_at, "t3");
  evolve(pet, CategoryUpdated{4, "Dogs", std::nullopt}, 4, "t4");  // not a pet event: no change
  EXPECT_EQ(pet->version, 3);
  evolve(pet, PetDeleted{2}, 4, "t4");
  EXPECT_FALSE(pet.has_value());
}

// One category's fold: the Catalogue's category but for its pet count,
// which comes from the pets topic.
TEST(Evolve, OneCategorysFoldIsTheCataloguesBarItsPetCount) {
  Catalogue s;
  std::optional<Category> category;
  const std::vector<Event> life{CategoryCreated{1, "Dogs", std::nullopt},
                                CategoryUpdated{1, "Hounds", "loud"}};
  evolve(s, PetCreated{.id = 2, .name = "Rex", .category_id = 1, .status = PetStatus::Available}, 1, "t");
  std::int64_t version = 0;
  for (const auto& e : life) {
    ++version;
    evolve(s, e, version, "t");
    evolve(category, e, version, "t");
    ASSERT_TRUE(category.has_value());
    auto expected = s.categories.at(1);
    EXPECT_EQ(expected.pet_count, 1);
    expected.pet_count = 0;
    EXPECT_EQ(*category, expected);
  }
  evolve(category, PetDeleted{2}, 3, "t");  // not a category event: no change
  EXPECT_EQ(category->version, 2);
  evolve(category, CategoryDeleted{1}, 3, "t");
  EXPECT_FALSE(category.has_value());
}

// The category's writer: admissions move the category's version and are
// kept by pet, the latest of each, for kAdmissionsKept; a deletion drops them.
TEST(Evolve, ACategorysWriterKeepsItsRecentAdmissionsByPet) {
  CategoryState s;
  evolve(s, CategoryCreated{1, "Dogs", std::nullopt}, 1, "2026-12-02T10:00:00Z");
  evolve(s, CategoryPetsAdmitted{1, {{7, 1}}}, 2, "2026-12-02T10:00:01Z");
  evolve(s, CategoryPetsAdmitted{1, {{8, 1}}}, 3, "2026-12-02T10:00:02Z");
  evolve(s, CategoryPetsAdmitted{1, {{7, 4}}}, 4, "2026-12-02T10:00:03Z");
  ASSERT_TRUE(s.category.has_value());
  EXPECT_EQ(s.category->version, 4);
  ASSERT_EQ(s.admitted.size(), 2U);
  EXPECT_EQ(s.admitted.at(7).pet_version, 4);
  EXPECT_EQ(s.admitted.at(7).at_ms - s.admitted.at(8).at_ms, 1000);

  evolve(s, CategoryPetsAdmitted{1, {{9, 1}}}, 5, "2026-12-02T10:15:02.500Z");  // 8 is older than kept
  EXPECT_EQ(s.admitted.count(8), 0U);
  EXPECT_EQ(s.admitted.count(7), 1U);
  EXPECT_EQ(s.admitted.count(9), 1U);

  evolve(s, CategoryDeleted{1}, 6, "2026-12-02T10:16:00Z");
  EXPECT_FALSE(s.category.has_value());
  EXPECT_TRUE(s.admitted.empty());
}

}  // namespace
}  // namespace petstore::pets
