#include "inventory/domain/evolve.h"

#include <gtest/gtest.h>

namespace petstore::inventory {
namespace {

using State = Reservation::State;

// A ledger folded from `events`, numbered 1, 2, ... with times t1, t2, ...
Ledger folded(std::initializer_list<Event> events) {
  Ledger l;
  std::int64_t version = 0;
  for (const auto& e : events) {
    ++version;
    EXPECT_TRUE(evolve(l, e, version, "t" + std::to_string(version)));
  }
  return l;
}

TEST(InventoryEvolve, FoldsALedgersLife) {
  auto l = folded({Tracked{7, PetStatus::Available, 1}});
  EXPECT_TRUE(l.item.tracked);
  EXPECT_EQ(l.item.pet_id, 7);
  EXPECT_EQ(l.item.status, PetStatus::Sold);  // tracked, but nothing in stock

  l = folded({Tracked{7, PetStatus::Available, 1}, StockSet{7, 3}, Reserved{7, 100, 2}, Reserved{7, 101, 1}});
  EXPECT_EQ(l.item.quantity, 0);
  EXPECT_EQ(l.item.reserved, 3);
  EXPECT_EQ(l.item.status, PetStatus::Pending);  // all of it held by open orders
  EXPECT_EQ(l.orders.at(100).state, State::Reserved);
  EXPECT_EQ(l.orders.at(100).quantity, 2);

  // Cancelling gives the units back; completing takes them out of the store.
  EXPECT_TRUE(evolve(l, Released{7, 100, 2}, 5, "t5"));
  EXPECT_EQ(l.item.quantity, 2);
  EXPECT_EQ(l.item.reserved, 1);
  EXPECT_EQ(l.item.status, PetStatus::Available);
  EXPECT_TRUE(evolve(l, Consumed{7, 101, 1}, 6, "t6"));
  EXPECT_EQ(l.item.quantity, 2);
  EXPECT_EQ(l.item.reserved, 0);
  EXPECT_EQ(l.orders.at(100).state, State::Released);
  EXPECT_EQ(l.orders.at(101).state, State::Consumed);
  EXPECT_EQ(l.orders.at(101).quantity, 1);
  EXPECT_EQ(l.item.version, 6);
  EXPECT_EQ(l.item.updated_at, "t6");
}

TEST(InventoryEvolve, AnEventAtOrBelowTheVersionChangesNothing) {
  auto l = folded({Tracked{7, PetStatus::Available, 1}, StockSet{7, 3}, Reserved{7, 100, 2}});
  EXPECT_FALSE(evolve(l, Reserved{7, 100, 2}, 3, "later"));
  EXPECT_FALSE(evolve(l, StockSet{7, 50}, 1, "later"));
  EXPECT_EQ(l.item.quantity, 1);
  EXPECT_EQ(l.item.reserved, 2);
  EXPECT_EQ(l.item.version, 3);
  EXPECT_EQ(l.item.updated_at, "t3");
}

// Settling an order returns the units it actually holds,
// none for one that holds no reservation, and the ledger records that.
TEST(InventoryEvolve, SettlingAnOrderWithoutAReservationMovesNoUnits) {
  auto l =
      folded({Tracked{7, PetStatus::Available, 1}, StockSet{7, 3},
              Refused{7, 100, 5, OrderRefusal::InsufficientStock}, Released{7, 100, 5}, Consumed{7, 101, 4}});
  EXPECT_EQ(l.item.quantity, 3);
  EXPECT_EQ(l.item.reserved, 0);
  EXPECT_EQ(l.orders.at(100).state, State::Released);
  EXPECT_EQ(l.orders.at(100).quantity, 0);
  EXPECT_EQ(l.orders.at(101).state, State::Consumed);
  EXPECT_EQ(l.orders.at(101).quantity, 0);
}

TEST(InventoryEvolve, MirrorsTheCatalogue) {
  auto l = folded(
      {Tracked{7, PetStatus::Available, 1}, StockSet{7, 3}, PetStatusMirrored{7, PetStatus::Pending, 2}});
  EXPECT_EQ(l.item.pet_status, PetStatus::Pending);
  EXPECT_EQ(l.item.pet_version, 2);
  EXPECT_EQ(l.item.status, PetStatus::Pending);  // the catalogue's status wins over stock
  EXPECT_TRUE(evolve(l, Untracked{7, 3}, 4, "t4"));
  EXPECT_FALSE(l.item.tracked);
  EXPECT_EQ(l.item.pet_version, 3);
  EXPECT_EQ(l.item.quantity, 3);  // the ledger keeps its history
}

}  // namespace
}  // namespace petstore::inventory
