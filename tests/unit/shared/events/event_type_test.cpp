// events::type_of: the CloudEvents type of whichever event a domain's
// variant holds, as each event struct names it.
#include "events/event_type.h"

#include <gtest/gtest.h>

#include <string_view>
#include <variant>

namespace petstore::events {
namespace {

struct Hatched {
  static constexpr std::string_view kType = "io.example.egg.hatched";
  int id = 0;
};
struct Cracked {
  static constexpr std::string_view kType = "io.example.egg.cracked";
};
struct Unnamed {};

using EggEvent = std::variant<Hatched, Cracked>;

static_assert(NamesItsType<Hatched>);
static_assert(!NamesItsType<Unnamed>);  // so type_of refuses a variant holding it
static_assert(type_of(EggEvent{Cracked{}}) == "io.example.egg.cracked", "usable at compile time");

TEST(EventType, IsTheTypeTheHeldEventNames) {
  EXPECT_EQ(type_of(EggEvent{Hatched{7}}), "io.example.egg.hatched");
  EXPECT_EQ(type_of(EggEvent{Cracked{}}), "io.example.egg.cracked");
}

}  // namespace
}  // namespace petstore::events
