#include "json/reader.h"

#include <gtest/gtest.h>

#include "error/api_error.h"

namespace petstore::json {
namespace {

std::string code_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ApiException& e) {
    EXPECT_EQ(e.error().status, 400);
    return e.error().code;
  }
  return "none";
}

TEST(JsonReader, MalformedInput) {
  EXPECT_EQ(code_of([] { parse_object("{"); }), "malformed_json");
  EXPECT_EQ(code_of([] { parse_object("[1]"); }), "malformed_json");
  EXPECT_EQ(code_of([] { parse_object("{} x"); }), "malformed_json");
  EXPECT_EQ(code_of([] { parse_object("{\"a\":\"\xff\"}"); }), "malformed_json");  // not UTF-8
  EXPECT_EQ(code_of([] { parse_object(std::string(100000, '[')); }), "malformed_json");
}

TEST(JsonReader, TypedFields) {
  const auto doc = parse_object(R"({"s":"x","i":5,"f":1.5,"big":18446744073709551615,"b":true,"n":null})");
  ObjectReader in(doc);
  EXPECT_EQ(in.required_string("s"), "x");
  EXPECT_EQ(in.required_int64("i"), 5);
  EXPECT_EQ(in.optional_bool("b"), true);
  EXPECT_FALSE(in.optional_string("n").has_value());
  EXPECT_EQ(code_of([&] { static_cast<void>(in.required_int64("f")); }), "invalid_type");
  EXPECT_EQ(code_of([&] { static_cast<void>(in.required_int64("big")); }), "invalid_value");
  EXPECT_EQ(code_of([&] { static_cast<void>(in.required_string("i")); }), "invalid_type");
  EXPECT_EQ(code_of([&] { static_cast<void>(in.required_string("missing")); }), "missing_field");
  EXPECT_EQ(code_of([&] { static_cast<void>(in.required_string("n")); }), "missing_field");
}

TEST(JsonReader, UnknownAndDuplicateFields) {
  const auto doc = parse_object(R"({"name":"x","nmae":"y"})");
  ObjectReader in(doc);
  static_cast<void>(in.required_string("name"));
  EXPECT_EQ(code_of([&] { in.reject_unknown(); }), "unknown_field");
  const auto dup = parse_object(R"({"name":"x","name":"y"})");
  EXPECT_EQ(code_of([&] { ObjectReader r(dup); }), "invalid_value");
}

}  // namespace
}  // namespace petstore::json
