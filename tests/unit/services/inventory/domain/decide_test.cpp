#include "inventory/domain/decide.h"

#include <gtest/gtest.h>

#include "inventory/domain/errors.h"

namespace petstore::inventory {
namespace {

Item tracked(std::int64_t quantity, PetStatus pet_status = PetStatus::Available) {
  Item item;
  item.pet_id = 7;
  item.tracked = true;
  item.pet_status = pet_status;
  item.pet_version = 1;
  item.quantity = quantity;
  item.version = 2;
  return item;
}

OrderFact placed(std::int64_t quantity) {
  return {OrderFact::Kind::Placed, 100, 7, quantity};
}

TEST(InventoryDecide, ReservesWhenStockSuffices) {
  const auto e = decide_order_fact(tracked(3), {}, placed(3));
  ASSERT_TRUE(e && std::holds_alternative<Reserved>(*e));
  EXPECT_EQ(std::get<Reserved>(*e).quantity, 3);
}

TEST(InventoryDecide, RefusesWithTheReason) {
  auto reason = [](const Item& item, std::int64_t q) {
    const auto e = decide_order_fact(item, {}, placed(q));
    return std::get<Refused>(e.value()).reason;
  };
  EXPECT_EQ(reason(tracked(2), 3), OrderRefusal::InsufficientStock);
  EXPECT_EQ(reason(Item{}, 1), OrderRefusal::UnknownPet);
  EXPECT_EQ(reason(tracked(5, PetStatus::Sold), 1), OrderRefusal::PetNotAvailable);
}

TEST(InventoryDecide, AnOrderIsDecidedOnce) {
  for (const auto state : {Reservation::State::Reserved, Reservation::State::Refused,
                           Reservation::State::Released, Reservation::State::Consumed}) {
    EXPECT_FALSE(decide_order_fact(tracked(10), {state, 1}, placed(1)));
  }
}

TEST(InventoryDecide, CancelReleasesAndCompleteConsumesOnlyAReservation) {
  const Reservation held{Reservation::State::Reserved, 2};
  const auto released = decide_order_fact(tracked(0), held, {OrderFact::Kind::Cancelled, 100, 7, 2});
  EXPECT_EQ(std::get<Released>(released.value()).quantity, 2);
  const auto consumed = decide_order_fact(tracked(0), held, {OrderFact::Kind::Completed, 100, 7, 2});
  EXPECT_EQ(std::get<Consumed>(consumed.value()).quantity, 2);
  EXPECT_FALSE(decide_order_fact(tracked(0), {Reservation::State::Refused, 0},
                                 {OrderFact::Kind::Cancelled, 100, 7, 2}));
  EXPECT_FALSE(decide_order_fact(tracked(0), {Reservation::State::Released, 2},
                                 {OrderFact::Kind::Cancelled, 100, 7, 2}));
}

TEST(InventoryDecide, MirrorsOnlyNewerPetEvents) {
  Item item;
  item.pet_id = 7;
  const auto created = decide_pet_fact(item, {PetFact::Kind::Appeared, 7, 1, PetStatus::Available});
  EXPECT_TRUE(std::holds_alternative<Tracked>(created.value()));
  const auto t = tracked(0);
  EXPECT_FALSE(decide_pet_fact(t, {PetFact::Kind::Changed, 7, 1, PetStatus::Sold}));
  EXPECT_TRUE(std::holds_alternative<PetStatusMirrored>(
      decide_pet_fact(t, {PetFact::Kind::Changed, 7, 2, PetStatus::Sold}).value()));
  EXPECT_TRUE(std::holds_alternative<Untracked>(decide_pet_fact(t, {PetFact::Kind::Deleted, 7, 3}).value()));
}

TEST(InventoryDecide, StockBounds) {
  EXPECT_EQ(decide_set_stock(tracked(1), 5)->quantity, 5);
  EXPECT_FALSE(decide_set_stock(tracked(5), 5));
  EXPECT_THROW(decide_set_stock(tracked(1), -1), DomainError);
  EXPECT_THROW(decide_set_stock(tracked(1), kMaxQuantity + 1), DomainError);
  EXPECT_THROW(decide_set_stock(Item{}, 1), DomainError);
}

}  // namespace
}  // namespace petstore::inventory
