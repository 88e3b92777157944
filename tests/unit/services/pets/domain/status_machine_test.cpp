#include "pets/domain/status_machine.h"

#include <gtest/gtest.h>

namespace petstore::pets {
namespace {

TEST(StatusMachine, AllowsTheDocumentedTransitions) {
  EXPECT_TRUE(can_transition(PetStatus::Available, PetStatus::Pending));
  EXPECT_TRUE(can_transition(PetStatus::Available, PetStatus::Sold));
  EXPECT_TRUE(can_transition(PetStatus::Pending, PetStatus::Available));
  EXPECT_TRUE(can_transition(PetStatus::Pending, PetStatus::Sold));
}

TEST(StatusMachine, SoldIsFinal) {
  EXPECT_FALSE(can_transition(PetStatus::Sold, PetStatus::Available));
  EXPECT_FALSE(can_transition(PetStatus::Sold, PetStatus::Pending));
}

TEST(StatusMachine, StayingIsNotATransition) {
  EXPECT_FALSE(can_transition(PetStatus::Available, PetStatus::Available));
}

TEST(PetStatus, ParsesOnlyTheThreeValues) {
  EXPECT_EQ(parse_status("available"), PetStatus::Available);
  EXPECT_EQ(parse_status("pending"), PetStatus::Pending);
  EXPECT_EQ(parse_status("sold"), PetStatus::Sold);
  EXPECT_FALSE(parse_status("Sold").has_value());
  EXPECT_FALSE(parse_status("").has_value());
  for (const auto s : {PetStatus::Available, PetStatus::Pending, PetStatus::Sold}) {
    EXPECT_EQ(parse_status(to_string(s)), s);
  }
}

}  // namespace
}  // namespace petstore::pets
