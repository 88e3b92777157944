#include "domain/decide.h"

#include <gtest/gtest.h>

#include "domain/errors.h"
#include "events/envelope.h"
#include "support/event_schema.h"

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

TEST(InventoryStatus, StockDecidesForAnAvailablePet) {
  EXPECT_EQ(effective_status(PetStatus::Available, 1, 0), PetStatus::Available);
  EXPECT_EQ(effective_status(PetStatus::Available, 0, 2), PetStatus::Pending);
  EXPECT_EQ(effective_status(PetStatus::Available, 0, 0), PetStatus::Sold);
  EXPECT_EQ(effective_status(PetStatus::Pending, 9, 0), PetStatus::Pending);
  EXPECT_EQ(effective_status(PetStatus::Sold, 9, 0), PetStatus::Sold);
}

TEST(InventoryEvents, RoundTrip) {
  const Event events[] = {Tracked{7, PetStatus::Pending, 3},
                          PetStatusMirrored{7, PetStatus::Sold, 4},
                          Untracked{7, 5},
                          StockSet{7, 12},
                          Reserved{7, 100, 2},
                          Refused{7, 100, 2, OrderRefusal::UnknownPet},
                          Released{7, 100, 2},
                          Consumed{7, 100, 2}};
  for (const auto& e : events) {
    EXPECT_TRUE(testing::matches_published_schema(type_of(e), encode(e)));
    const auto back = decode(type_of(e), encode(e));
    EXPECT_EQ(encode(back), encode(e));
    EXPECT_EQ(type_of(back), type_of(e));
  }
  EXPECT_THROW(decode("io.petstore.inventory.nope", "{}"), std::invalid_argument);
  EXPECT_THROW(decode(Reserved::kType, R"({"petId":7})"), std::invalid_argument);
}

TEST(InventoryUpstream, ReadsPetAndOrderEvents) {
  events::Envelope e;
  e.type = "io.petstore.pet.status_changed";
  e.subject = "7";
  e.version = 4;
  e.data = R"({"id":7,"from":"available","to":"sold"})";
  const auto fact = read_pet_fact(e).value();
  EXPECT_EQ(fact.status, PetStatus::Sold);
  EXPECT_EQ(fact.pet_version, 4);
  e.type = "io.petstore.category.created";
  EXPECT_FALSE(read_pet_fact(e));
  e.type = "io.petstore.order.placed";
  e.subject = "100";
  e.data = R"({"id":100,"petId":7,"quantity":2})";
  const auto order = read_order_fact(e).value();
  EXPECT_EQ(order.pet_id, 7);
  EXPECT_EQ(order.quantity, 2);
  e.type = "io.petstore.order.reserved";
  EXPECT_FALSE(read_order_fact(e));
}

}  // namespace
}  // namespace petstore::inventory
