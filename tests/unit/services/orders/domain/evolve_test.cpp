#include "orders/domain/evolve.h"

#include <gtest/gtest.h>

namespace petstore::orders {
namespace {

TEST(OrdersEvolve, FoldsAnOrdersLife) {
  Order o;
  EXPECT_TRUE(evolve(o, OrderPlaced{100, 7, 2, std::nullopt}, 1, "t1"));
  EXPECT_EQ(o.id, 100);
  EXPECT_EQ(o.pet_id, 7);
  EXPECT_EQ(o.quantity, 2);
  EXPECT_EQ(o.status, OrderStatus::Placed);
  EXPECT_FALSE(o.ship_date);
  EXPECT_TRUE(evolve(o, OrderReserved{100, 7, 2}, 2, "t2"));
  EXPECT_EQ(o.status, OrderStatus::Reserved);
  EXPECT_FALSE(o.complete());
  EXPECT_TRUE(evolve(o, OrderCompleted{100, 7, 2, "2026-12-01T00:00:00Z"}, 3, "t3"));
  EXPECT_EQ(o.status, OrderStatus::Completed);
  EXPECT_TRUE(o.complete());
  EXPECT_EQ(o.ship_date, "2026-12-01T00:00:00Z");
  EXPECT_EQ(o.version, 3);
  EXPECT_EQ(o.created_at, "t1");
  EXPECT_EQ(o.updated_at, "t3");
}

TEST(OrdersEvolve, RecordsTheInventorysRefusalAndACancellation) {
  Order rejected;
  evolve(rejected, OrderPlaced{100, 7, 2, "2026-12-01T00:00:00Z"}, 1, "t1");
  EXPECT_TRUE(evolve(rejected, OrderRejected{100, 7, 2, OrderRefusal::InsufficientStock}, 2, "t2"));
  EXPECT_EQ(rejected.status, OrderStatus::Rejected);
  EXPECT_EQ(rejected.rejection, OrderRefusal::InsufficientStock);
  EXPECT_EQ(rejected.ship_date, "2026-12-01T00:00:00Z");  // as placed

  Order cancelled;
  evolve(cancelled, OrderPlaced{101, 7, 1, std::nullopt}, 1, "t1");
  EXPECT_TRUE(evolve(cancelled, OrderCancelled{101, 7, 1}, 2, "t2"));
  EXPECT_EQ(cancelled.status, OrderStatus::Cancelled);
  EXPECT_FALSE(cancelled.rejection);
}

TEST(OrdersEvolve, AnEventAtOrBelowTheVersionChangesNothing) {
  Order o;
  evolve(o, OrderPlaced{100, 7, 2, std::nullopt}, 1, "t1");
  evolve(o, OrderReserved{100, 7, 2}, 2, "t2");
  const auto before = o;
  EXPECT_FALSE(evolve(o, OrderCancelled{100, 7, 2}, 2, "later"));
  EXPECT_FALSE(evolve(o, OrderPlaced{100, 8, 9, std::nullopt}, 1, "later"));
  EXPECT_EQ(o, before);
}

}  // namespace
}  // namespace petstore::orders
