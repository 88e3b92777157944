#include "inventory/domain/item.h"

#include <gtest/gtest.h>

namespace petstore::inventory {
namespace {

TEST(InventoryStatus, StockDecidesForAnAvailablePet) {
  EXPECT_EQ(effective_status(PetStatus::Available, 1, 0), PetStatus::Available);
  EXPECT_EQ(effective_status(PetStatus::Available, 0, 2), PetStatus::Pending);
  EXPECT_EQ(effective_status(PetStatus::Available, 0, 0), PetStatus::Sold);
  EXPECT_EQ(effective_status(PetStatus::Pending, 9, 0), PetStatus::Pending);
  EXPECT_EQ(effective_status(PetStatus::Sold, 9, 0), PetStatus::Sold);
}

}  // namespace
}  // namespace petstore::inventory
