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

}  // namespace petstore::testing
