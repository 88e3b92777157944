#include "pets/projection/records.h"

#include <gtest/gtest.h>

#include "pets/domain/evolve.h"
#include "pets/projection/pets_projection.h"

namespace petstore::pets {
namespace {

const PetKeys& keys() {
  static const PetKeys k("t");
  return k;
}

std::optional<std::string> field(const projection::Record& r, const std::string& name) {
  for (const auto& [n, v] : r.fields) {
    if (n == name) {
      return v;
    }
  }
  ADD_FAILURE() << "no field " << name;
  return std::nullopt;
}

TEST(PetRecord, ListsThePetByStatusAndCategoryAndCountsItInItsCategory) {
  const Pet pet{5, "Rex", 2, PetStatus::Pending, 3, "t0", "t1", std::nullopt};
  const auto r = pet_record(keys(), pet);
  EXPECT_EQ(field(r, "name"), "Rex");
  EXPECT_EQ(field(r, "categoryId"), "2");
  EXPECT_EQ(field(r, "status"), "pending");
  EXPECT_EQ(field(r, "deleted"), "0");
  EXPECT_EQ(field(r, "description"), std::nullopt);
  const std::map<std::string, std::string> indexes{
      {keys().all_pets(), "5"},
      {keys().pets_by_status(PetStatus::Pending), "5"},
      {keys().pets_by_category(2), "5"},
      {keys().pets_by_category_status(2, PetStatus::Pending), "5"}};
  EXPECT_EQ(r.indexes, indexes);
  EXPECT_EQ(r.counts, (std::set<std::pair<std::string, std::string>>{{keys().pet_counts(), "2"}}));
}

TEST(PetRecord, ADeletedPetIsATombstoneInNoListOrCount) {
  const auto r = pet_record(keys(), std::nullopt);
  EXPECT_EQ(field(r, "deleted"), "1");
  EXPECT_EQ(field(r, "name"), std::nullopt);
  EXPECT_TRUE(r.indexes.empty());
  EXPECT_TRUE(r.counts.empty());
}

// The model folds with the domain's evolve: moving a pet takes it out of
// its old category's lists and count, and into the new one's.
TEST(PetsModel, MovingAPetMovesItsListsAndCount) {
  const PetsModel model(keys());
  PetsModel::State s;
  s.pet = Pet{.id = 5,
              .name = "Rex",
              .category_id = 2,
              .status = PetStatus::Available,
              .version = 1,
              .created_at = "t0",
              .updated_at = "t0"};
  const Event moved = PetUpdated{
      .id = 5, .name = "Rex", .category_id = 3, .status = PetStatus::Available, .description = "big"};
  const auto before = model.record(s, moved);
  model.evolve(s, moved, 2, "t1");
  const auto out = projection::effect(keys().pet(5), "5", before, model.record(s, moved));
  const auto has = [&](const projection::Command& c) {
    return std::find(out.begin(), out.end(), c) != out.end();
  };
  EXPECT_TRUE(has({"ZREM", keys().pets_by_category(2), "5"}));
  EXPECT_TRUE(has({"ZADD", keys().pets_by_category(3), "5", "5"}));
  EXPECT_TRUE(has({"HINCRBY", keys().pet_counts(), "2", "-1"}));
  EXPECT_TRUE(has({"HINCRBY", keys().pet_counts(), "3", "1"}));
  EXPECT_FALSE(has({"ZREM", keys().all_pets(), "5"}));
}

TEST(CategoryRecord, ADeletedCategoryLeavesItsIndexAndATombstone) {
  const auto live = category_record(keys(), Category{.id = 4, .name = "Dogs", .version = 1, .pet_count = 0});
  const auto gone = category_record(keys(), std::nullopt);
  EXPECT_EQ(live.indexes, (std::map<std::string, std::string>{{keys().all_categories(), "4"}}));
  const auto out = projection::effect(keys().category(4), "4", live, gone);
  EXPECT_NE(std::find(out.begin(), out.end(), projection::Command{"ZREM", keys().all_categories(), "4"}),
            out.end());
  EXPECT_EQ(field(gone, "deleted"), "1");
}

}  // namespace
}  // namespace petstore::pets
