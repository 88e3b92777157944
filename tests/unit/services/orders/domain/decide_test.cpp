#include "orders/domain/decide.h"

#include <gtest/gtest.h>

#include "orders/domain/errors.h"

namespace petstore::orders {
namespace {

Order in(OrderStatus status) {
  Order o;
  o.id = 100;
  o.pet_id = 7;
  o.quantity = 2;
  o.status = status;
  o.version = 1;
  return o;
}

TEST(OrdersDecide, PlacementBounds) {
  EXPECT_EQ(decide_place(1, {7, 1, std::nullopt}).quantity, 1);
  EXPECT_EQ(decide_place(1, {7, kMaxOrderQuantity, std::nullopt}).quantity, kMaxOrderQuantity);
  EXPECT_THROW(decide_place(1, {7, 0, std::nullopt}), DomainError);
  EXPECT_THROW(decide_place(1, {7, kMaxOrderQuantity + 1, std::nullopt}), DomainError);
  EXPECT_THROW(decide_place(1, {0, 1, std::nullopt}), DomainError);
  // The largest id there is, and one past it, which no pet can have.
  EXPECT_EQ(decide_place(1, {9007199254740991, 1, std::nullopt}).pet_id, 9007199254740991);
  EXPECT_THROW(decide_place(1, {9007199254740992, 1, std::nullopt}), DomainError);
}

TEST(OrdersDecide, OnlyAPlacedOrderTakesTheOutcome) {
  EXPECT_TRUE(
      std::holds_alternative<OrderReserved>(decide_outcome(in(OrderStatus::Placed), {100, true}).value()));
  const auto rejected = decide_outcome(in(OrderStatus::Placed), {100, false, OrderRefusal::UnknownPet});
  EXPECT_EQ(std::get<OrderRejected>(rejected.value()).reason, OrderRefusal::UnknownPet);
  for (const auto s :
       {OrderStatus::Reserved, OrderStatus::Rejected, OrderStatus::Cancelled, OrderStatus::Completed}) {
    EXPECT_FALSE(decide_outcome(in(s), {100, true}));
  }
}

TEST(OrdersDecide, LifeCycle) {
  EXPECT_EQ(decide_complete(in(OrderStatus::Reserved), "2026-12-01T00:00:00Z")->ship_date,
            "2026-12-01T00:00:00Z");
  EXPECT_FALSE(decide_complete(in(OrderStatus::Completed), "x"));
  for (const auto s : {OrderStatus::Rejected, OrderStatus::Cancelled}) {
    EXPECT_THROW(decide_complete(in(s), "x"), DomainError) << to_string(s);
  }
  EXPECT_TRUE(decide_cancel(in(OrderStatus::Reserved)));
  EXPECT_FALSE(decide_cancel(in(OrderStatus::Cancelled)));
  EXPECT_THROW(decide_cancel(in(OrderStatus::Completed)), DomainError);
  EXPECT_THROW(decide_cancel(in(OrderStatus::Rejected)), DomainError);
}

// Nothing but the inventory's answer moves a placed order: the answer alone
// then decides its outcome, whoever records it.
TEST(OrdersDecide, APlacedOrderIsNeitherCompletedNorCancelledBeforeTheInventoryAnswers) {
  const auto not_yet = [](const auto& decide) {
    try {
      decide();
    } catch (const DomainError& e) {
      return e.kind() == DomainError::Kind::NotYet && e.code() == codes::kOrderAwaitingStock;
    }
    return false;
  };
  EXPECT_TRUE(not_yet([] { return decide_cancel(in(OrderStatus::Placed)); }));
  EXPECT_TRUE(not_yet([] { return decide_complete(in(OrderStatus::Placed), "x"); }));
}

}  // namespace
}  // namespace petstore::orders
