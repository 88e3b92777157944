#include "json/writer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace petstore::json {
namespace {

using namespace std::string_view_literals;

TEST(Writer, WritesEachKindOfValueInOrder) {
  Writer w;
  w.begin_object()
      .field("name", "Rex")
      .field("id", std::int64_t{42})
      .field("available", true)
      .key("tags")
      .begin_array()
      .value("a")
      .value(std::string("b"))
      .end_array()
      .key("shipDate")
      .null()
      .end_object();
  EXPECT_EQ(w.finish(), R"({"name":"Rex","id":42,"available":true,"tags":["a","b"],"shipDate":null})");
}

TEST(Writer, WritesEveryInt64InFull) {
  // No exponent form and no loss: ids and offsets are int64 end to end.
  Writer w;
  w.begin_array()
      .value(std::numeric_limits<std::int64_t>::min())
      .value(std::numeric_limits<std::int64_t>::max())
      .value(std::int64_t{9007199254740993})  // 2^53 + 1: not a double
      .end_array();
  EXPECT_EQ(w.finish(), "[-9223372036854775808,9223372036854775807,9007199254740993]");
}

TEST(Writer, EscapesWhatJsonRequiresAndKeepsTheRestOfUtf8AsItIs) {
  // The text's length is the view's, not up to a NUL: an embedded NUL is
  // escaped, not a place where the string ends.
  Writer w;
  w.begin_object().field("k\"ey", "q\" b\\ n\n t\t \x01 \0 end/ \xC3\xA9 \xF0\x9F\x90\xB6"sv).end_object();
  EXPECT_EQ(w.finish(), R"({"k\"ey":"q\" b\\ n\n t\t \u0001 \u0000 end/ )"
                        "\xC3\xA9 \xF0\x9F\x90\xB6\"}");
}

TEST(Writer, CopiesRawJsonAsItIs) {
  // A stored event's data goes out byte for byte, not re-parsed.
  Writer w;
  w.begin_object().field("type", "x").key("data").raw(R"({"petId":7,"n":1.50})").end_object();
  EXPECT_EQ(w.finish(), R"({"type":"x","data":{"petId":7,"n":1.50}})");
}

TEST(Writer, AnOptionalFieldIsWrittenOnlyWhenItHasAValue) {
  Writer w;
  w.begin_object()
      .optional_field("absent", std::optional<std::string>{})
      .optional_field("present", std::optional<std::string>{"2026-11-26T00:00:00Z"})
      .optional_field("count", std::optional<std::int64_t>{0})
      .end_object();
  EXPECT_EQ(w.finish(), R"({"present":"2026-11-26T00:00:00Z","count":0})");
}

TEST(Writer, FinishCanBeAskedTwiceAndGivesTheSameText) {
  Writer w;
  w.begin_array().value(std::int64_t{1}).end_array();
  EXPECT_EQ(w.finish(), "[1]");
  EXPECT_EQ(w.finish(), "[1]");
}

}  // namespace
}  // namespace petstore::json
