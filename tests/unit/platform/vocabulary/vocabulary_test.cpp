// The words the services and their events share: each value's word parses
// back to it, and nothing else parses (case and spacing included: they are
// the API's and the events' exact vocabulary).
#include <gtest/gtest.h>

#include <string>

#include "vocabulary/order_refusal.h"
#include "vocabulary/pet_status.h"

namespace petstore {
namespace {

TEST(Vocabulary, EveryPetStatusRoundTrips) {
  for (const auto s : {PetStatus::Available, PetStatus::Pending, PetStatus::Sold}) {
    EXPECT_EQ(parse_status(to_string(s)), s) << to_string(s);
  }
  EXPECT_EQ(to_string(PetStatus::Available), "available");
  EXPECT_EQ(to_string(PetStatus::Pending), "pending");
  EXPECT_EQ(to_string(PetStatus::Sold), "sold");
}

TEST(Vocabulary, EveryOrderRefusalRoundTrips) {
  for (const auto r :
       {OrderRefusal::InsufficientStock, OrderRefusal::UnknownPet, OrderRefusal::PetNotAvailable}) {
    EXPECT_EQ(parse_refusal(to_string(r)), r) << to_string(r);
  }
  EXPECT_EQ(to_string(OrderRefusal::InsufficientStock), "insufficient_stock");
  EXPECT_EQ(to_string(OrderRefusal::UnknownPet), "unknown_pet");
  EXPECT_EQ(to_string(OrderRefusal::PetNotAvailable), "pet_not_available");
}

TEST(Vocabulary, NothingElseParses) {
  for (const std::string word : {"", "Available", "SOLD", " pending", "pending ", "sold\n", "deleted"}) {
    EXPECT_FALSE(parse_status(word)) << '"' << word << '"';
  }
  for (const std::string word : {"", "Insufficient_Stock", "unknown-pet", "insufficient_stock "}) {
    EXPECT_FALSE(parse_refusal(word)) << '"' << word << '"';
  }
  EXPECT_FALSE(parse_status(std::string("sold\0", 5)));
}

}  // namespace
}  // namespace petstore
