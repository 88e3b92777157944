#include "orders/domain/events.h"

#include <gtest/gtest.h>

#include "support/event_schema.h"

namespace petstore::orders {
namespace {

TEST(OrdersEvents, RoundTrip) {
  const Event events[] = {OrderPlaced{1, 7, 2, "2026-12-01T00:00:00Z"},
                          OrderPlaced{1, 7, 2, std::nullopt},
                          OrderReserved{1, 7, 2},
                          OrderRejected{1, 7, 2, OrderRefusal::PetNotAvailable},
                          OrderCompleted{1, 7, 2, "2026-12-01T00:00:00Z"},
                          OrderCancelled{1, 7, 2}};
  for (const auto& e : events) {
    testing::expect_round_trip(
        e, [](std::string_view type, std::string_view data) { return decode(type, data); });
  }
}

TEST(OrdersEvents, DecodeRefusesUnknownTypesAndBadPayloads) {
  EXPECT_THROW(decode("io.petstore.order.lost", R"({"id":1,"petId":7,"quantity":2})"), std::invalid_argument);
  EXPECT_THROW(decode(OrderReserved::kType, R"({"id":1,"petId":7})"), std::invalid_argument);
  EXPECT_THROW(decode(OrderRejected::kType, R"({"id":1,"petId":7,"quantity":2,"reason":"bored"})"),
               std::invalid_argument);
  EXPECT_THROW(decode(OrderPlaced::kType, R"({"id":"1","petId":7,"quantity":2})"), std::invalid_argument);
}

}  // namespace
}  // namespace petstore::orders
