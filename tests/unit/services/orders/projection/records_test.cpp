#include "orders/projection/records.h"

#include <gtest/gtest.h>

namespace petstore::orders {
namespace {

const OrderKeys& keys() {
  static const OrderKeys k("t");
  return k;
}

TEST(OrderRecord, AnOrderNotPlacedHoldsNothing) {
  const auto r = order_record(keys(), Order{});
  EXPECT_TRUE(r.fields.empty());
  EXPECT_TRUE(r.indexes.empty());
}

// Every list of GET /store/orders that can name it: all, by status, by
// completeness, and each of those for its pet.
TEST(OrderRecord, ACompletedOrderIsInTheSixListsOfItsStatus) {
  Order o;
  o.id = 9;
  o.pet_id = 4;
  o.status = OrderStatus::Completed;
  o.version = 3;
  const auto r = order_record(keys(), o);
  std::map<std::string, std::string> expected;
  for (const std::optional<std::int64_t> pet :
       {std::optional<std::int64_t>{}, std::optional<std::int64_t>(4)}) {
    expected.emplace(keys().index(pet, std::nullopt, std::nullopt), "9");
    expected.emplace(keys().index(pet, OrderStatus::Completed, std::nullopt), "9");
    expected.emplace(keys().index(pet, std::nullopt, true), "9");
  }
  EXPECT_EQ(r.indexes, expected);
}

}  // namespace
}  // namespace petstore::orders
