#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/schema.h>

namespace petstore::testing {

// Checks an event's data against its published JSON Schema of that version,
// schemas/events/<type without "io.petstore.">[.v<N>].json (docs/events.md).
inline ::testing::AssertionResult matches_published_schema(std::string_view type, const std::string& data,
                                                           int schema_version = 1) {
  const auto name = std::string(type.substr(std::string_view("io.petstore.").size()));
  const auto suffix = schema_version == 1 ? std::string() : ".v" + std::to_string(schema_version);
  std::ifstream in(std::string(PETSTORE_SOURCE_DIR) + "/schemas/events/" + name + suffix + ".json");
  std::stringstream ss;
  ss << in.rdbuf();
  const auto text = ss.str();
  if (text.empty()) {
    return ::testing::AssertionFailure() << "no schema for " << type;
  }
  rapidjson::Document schema_doc;
  schema_doc.Parse(text.c_str());
  if (schema_doc.HasParseError()) {
    return ::testing::AssertionFailure() << "schema of " << type << " is not JSON";
  }
  const rapidjson::SchemaDocument schema(schema_doc);
  rapidjson::Document doc;
  doc.Parse(data.c_str());
  rapidjson::SchemaValidator validator(schema);
  if (!doc.Accept(validator)) {
    return ::testing::AssertionFailure() << type << ": " << data << " does not match its schema";
  }
  return ::testing::AssertionSuccess();
}

// A service's event, encoded, matches its published schema, and decodes
// back to the same data, type and aggregate. The service's encode, type_of
// and aggregate_of are found by argument-dependent lookup; `decode` is
// given, since nothing of the event is among its arguments.
template <typename Event, typename Decode>
void expect_round_trip(const Event& e, const Decode& decode) {
  const auto data = encode(e);
  EXPECT_TRUE(matches_published_schema(type_of(e), data)) << data;
  const Event back = decode(type_of(e), data);
  EXPECT_EQ(encode(back), data);
  EXPECT_EQ(type_of(back), type_of(e));
  EXPECT_EQ(aggregate_of(back), aggregate_of(e));
}

}  // namespace petstore::testing
