#include "domain/evolve.h"

#include <gtest/gtest.h>

namespace petstore::pets {
namespace {

TEST(Evolve, FoldsAPetsLife) {
  Catalogue s;
  EXPECT_TRUE(evolve(s, CategoryCreated{1, "Dogs", std::nullopt}, 1, "t1"));
  EXPECT_TRUE(evolve(s, PetCreated{2, "Rex", 1, PetStatus::Available, std::nullopt}, 1, "t2"));
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
  evolve(s, PetCreated{2, "Rex", 1, PetStatus::Available, std::nullopt}, 1, "t");
  EXPECT_FALSE(evolve(s, PetCreated{2, "Rex", 1, PetStatus::Available, std::nullopt}, 1, "t"));
  EXPECT_EQ(s.categories[1].pet_count, 1);
  evolve(s, PetDeleted{2}, 2, "t");
  // A redelivered create must not resurrect a deleted pet.
  EXPECT_FALSE(evolve(s, PetCreated{2, "Rex", 1, PetStatus::Available, std::nullopt}, 1, "t"));
  EXPECT_FALSE(s.pets.contains(2));
}

TEST(Evolve, MovingAPetMovesTheCount) {
  Catalogue s;
  evolve(s, CategoryCreated{1, "Dogs", std::nullopt}, 1, "t");
  evolve(s, CategoryCreated{2, "Cats", std::nullopt}, 1, "t");
  evolve(s, PetCreated{3, "Rex", 1, PetStatus::Available, std::nullopt}, 1, "t");
  evolve(s, PetUpdated{3, "Rex", 2, PetStatus::Available, std::nullopt}, 2, "t");
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
  evolve(s, PetCreated{3, "Rex", 1, PetStatus::Available, std::nullopt}, 1, "t");
  evolve(s, CategoryCreated{1, "Dogs", std::nullopt}, 1, "t");
  EXPECT_EQ(s.categories[1].pet_count, 1);
}

}  // namespace
}  // namespace petstore::pets
