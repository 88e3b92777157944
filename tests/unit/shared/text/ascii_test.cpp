#include "text/ascii.h"

#include <gtest/gtest.h>

namespace petstore::text {
namespace {

TEST(EqualsIgnoringCase, ASCIILettersMatchInEitherCase) {
  EXPECT_TRUE(equals_ignoring_case("application/json", "application/json"));
  EXPECT_TRUE(equals_ignoring_case("Application/JSON", "application/json"));
  EXPECT_TRUE(equals_ignoring_case("X-Forwarded-For", "x-forwarded-for"));
  EXPECT_TRUE(equals_ignoring_case("", ""));
}

TEST(EqualsIgnoringCase, AnythingElseMustBeTheSame) {
  EXPECT_FALSE(equals_ignoring_case("application/jso", "application/json"));
  EXPECT_FALSE(equals_ignoring_case("application/jsonx", "application/json"));
  EXPECT_FALSE(equals_ignoring_case("application/json ", "application/json"));
  EXPECT_FALSE(equals_ignoring_case("bearer", "bearer "));
  // Only A-Z fold: '@' (0x40) and '[' (0x5B) border them, and adding 32 to
  // either would give '`' and '{'.
  EXPECT_FALSE(equals_ignoring_case("@", "`"));
  EXPECT_FALSE(equals_ignoring_case("[", "{"));
  // Not a Unicode fold: a non-ASCII byte is compared as it is.
  EXPECT_FALSE(equals_ignoring_case("\xC3\x89", "\xC3\xA9"));  // É, é
  // `lower` is lowercase by contract: an uppercase letter in it never matches.
  EXPECT_FALSE(equals_ignoring_case("A", "A"));
}

}  // namespace
}  // namespace petstore::text
