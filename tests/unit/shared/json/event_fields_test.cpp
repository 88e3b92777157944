#include "json/event_fields.h"

#include <gtest/gtest.h>

namespace petstore::json {
namespace {

// An event's integers are exact in every JSON reader (JavaScript, the
// projections' Lua): within +-(2^53 - 1), or the record is refused.
TEST(EventFields, IntegersStayWithinWhatADoubleHoldsExactly) {
  const EventFields f(
      R"({"max":9007199254740991,"min":-9007199254740991,"over":9007199254740992,"under":-9007199254740992,)"
      R"("int64":9223372036854775807,"text":"1"})");
  EXPECT_EQ(f.integer("max"), kMaxExactInteger);
  EXPECT_EQ(f.integer("min"), -kMaxExactInteger);
  for (const auto* name : {"over", "under", "int64", "text", "absent"}) {
    EXPECT_THROW((void)f.integer(name), std::invalid_argument) << name;
  }
  EXPECT_EQ(f.optional_integer("absent"), std::nullopt);
  EXPECT_THROW((void)f.optional_integer("over"), std::invalid_argument);
}

}  // namespace
}  // namespace petstore::json
