#include "inventory/domain/upstream.h"

#include <gtest/gtest.h>

namespace petstore::inventory {
namespace {

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
