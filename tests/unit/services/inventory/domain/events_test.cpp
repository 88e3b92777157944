#include "inventory/domain/events.h"

#include <gtest/gtest.h>

#include "support/event_schema.h"

namespace petstore::inventory {
namespace {

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
    testing::expect_round_trip(
        e, [](std::string_view type, std::string_view data) { return decode(type, data); });
  }
  EXPECT_THROW(decode("io.petstore.inventory.nope", "{}"), std::invalid_argument);
  EXPECT_THROW(decode(Reserved::kType, R"({"petId":7})"), std::invalid_argument);
}

}  // namespace
}  // namespace petstore::inventory
