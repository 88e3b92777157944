#include "json/reader.h"

#include <gtest/gtest.h>

namespace petstore::json {
namespace {

std::string code_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Invalid& e) {
    return e.code();
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

// Numbers never reach RapidJSON 1.1.0's own conversion (CVE-2024-38517):
// the input that once crashed a service, and its kin, are ordinary 400s.
TEST(JsonReader, NumbersOfAnyMagnitudeAreRefusedNotCrashedOn) {
  const auto below_double = "0." + std::string(400, '0') + "1";  // from_chars: out of range, so 0
  for (const std::string& n :
       {std::string("0.0000000001e-2147483639"), std::string("1e-2147483648"), std::string("1e-400"),
        std::string("-1e-400"), std::string("1.5"), std::string("0.0"), below_double}) {
    const auto doc = parse_object(R"({"id":)" + n + "}");
    ObjectReader in(doc);
    EXPECT_EQ(code_of([&] { static_cast<void>(in.required_int64("id")); }), "invalid_type") << n;
  }
  for (const char* n : {"9223372036854775808", "-9223372036854775809", "99999999999999999999999"}) {
    const auto doc = parse_object(std::string(R"({"id":)") + n + "}");
    ObjectReader in(doc);
    EXPECT_EQ(code_of([&] { static_cast<void>(in.required_int64("id")); }), "invalid_value") << n;
  }
  // RapidJSON's own grammar still refuses an exponent too large to be a double.
  EXPECT_EQ(code_of([] { parse_object(R"({"id":1e400})"); }), "malformed_json");
  EXPECT_EQ(code_of([] { parse_object(R"({"id":-1e999999})"); }), "malformed_json");
  EXPECT_EQ(code_of([] { parse_object(R"({"id":1)" + std::string(400, '0') + "}"); }), "malformed_json");
  const auto doc = parse_object(R"({"a":-9223372036854775808,"b":9223372036854775807,"c":0,"d":-0})");
  ObjectReader in(doc);
  EXPECT_EQ(in.required_int64("a"), INT64_MIN);
  EXPECT_EQ(in.required_int64("b"), INT64_MAX);
  EXPECT_EQ(in.required_int64("c"), 0);
  EXPECT_EQ(in.required_int64("d"), 0);
}

TEST(JsonReader, StringsAreWellFormedUtf8) {
  EXPECT_EQ(code_of([] { parse_object(R"({"name":"x\udc00"})"); }), "malformed_json");  // lone low surrogate
  EXPECT_EQ(code_of([] { parse_object(R"({"name":"x\ud800"})"); }), "malformed_json");  // lone high surrogate
  EXPECT_EQ(code_of([] { parse_object(R"({"\udc00":1})"); }), "malformed_json");        // in a member name
  EXPECT_EQ(code_of([] { parse_object(std::string("{}\0junk", 7)); }), "malformed_json");
  const auto doc = parse_object(R"({"name":"\ud83d\udc15 \u00fc"})");  // a surrogate pair is fine
  ObjectReader in(doc);
  EXPECT_EQ(in.required_string("name"), "\xF0\x9F\x90\x95 \xC3\xBC");
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
