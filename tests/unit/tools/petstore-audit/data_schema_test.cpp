#include "data_schema.h"

#include <gtest/gtest.h>

#include "json/parse.h"

namespace petstore::audit {
namespace {

std::optional<std::string> validate(const DataSchema& s, std::string_view text) {
  rapidjson::Document doc;
  EXPECT_FALSE(json::parse(text, doc).has_value()) << text;
  return s.validate(doc);
}

const char* kPet = R"({"type":"object","properties":{
  "id":{"type":"integer","minimum":1,"maximum":9007199254740991},
  "name":{"type":"string","minLength":1,"maxLength":3},
  "status":{"type":"string","enum":["available","sold"]},
  "at":{"type":"string","format":"date-time"}},
  "required":["id","name"],"additionalProperties":false})";

TEST(DataSchema, AcceptsWhatTheSchemaAllows) {
  const auto s = DataSchema::compile(kPet);
  EXPECT_EQ(validate(s, R"({"id":1,"name":"Rex"})"), std::nullopt);
  EXPECT_EQ(validate(s, R"({"id":9007199254740991,"name":"é","status":"sold","at":"2026-11-22T10:00:00Z"})"),
            std::nullopt);
}

TEST(DataSchema, NamesTheFirstProblemWithItsPointer) {
  const auto s = DataSchema::compile(kPet);
  EXPECT_EQ(validate(s, R"({"name":"a"})"), "/: lacks the required member id");
  EXPECT_EQ(validate(s, R"({"id":0,"name":"a"})"), "/id: is below the minimum 1");
  EXPECT_EQ(validate(s, R"({"id":9007199254740992,"name":"a"})"),
            "/id: is above the maximum 9007199254740991");
  EXPECT_EQ(validate(s, R"({"id":18446744073709551615,"name":"a"})"), "/id: is above the maximum");
  EXPECT_EQ(validate(s, R"({"id":1.5,"name":"a"})"), "/id: is not of type integer");
  EXPECT_EQ(validate(s, R"({"id":"1","name":"a"})"), "/id: is not of type integer");
  EXPECT_EQ(validate(s, R"({"id":1,"name":""})"), "/name: is shorter than 1 characters");
  EXPECT_EQ(validate(s, R"({"id":1,"name":"éééé"})"), "/name: is longer than 3 characters");
  EXPECT_EQ(validate(s, R"({"id":1,"name":"a","status":"lost"})"),
            "/status: is not one of the listed values");
  EXPECT_EQ(validate(s, R"({"id":1,"name":"a","at":"yesterday"})"), "/at: is not an RFC 3339 date-time");
  EXPECT_EQ(validate(s, R"({"id":1,"name":"a","extra":true})"),
            "/: has a member the schema does not allow: extra");
  EXPECT_EQ(validate(s, R"({"id":1,"id":2,"name":"a"})"), "/: has the member id more than once");
  EXPECT_EQ(validate(s, R"([1])"), "/: is not of type object");
}

TEST(DataSchema, ChecksArraysAndEachOfTheirItems) {
  const auto s = DataSchema::compile(R"({"type":"object","properties":{"pets":{"type":"array","minItems":1,
    "maxItems":2,"items":{"type":"object","properties":{"petId":{"type":"integer","minimum":1}},
    "required":["petId"],"additionalProperties":false}}},"required":["pets"]})");
  EXPECT_EQ(validate(s, R"({"pets":[{"petId":1},{"petId":2}]})"), std::nullopt);
  EXPECT_EQ(validate(s, R"({"pets":[]})"), "/pets: has fewer than 1 items");
  EXPECT_EQ(validate(s, R"({"pets":[{"petId":1},{"petId":2},{"petId":3}]})"), "/pets: has more than 2 items");
  EXPECT_EQ(validate(s, R"({"pets":[{"petId":1},{"petId":0}]})"), "/pets/1/petId: is below the minimum 1");
  EXPECT_EQ(validate(s, R"({"pets":[{"petId":1},{}]})"), "/pets/1: lacks the required member petId");
  EXPECT_EQ(validate(s, R"({"pets":{"petId":1}})"), "/pets: is not of type array");
}

TEST(DataSchema, RefusesKeywordsItDoesNotImplement) {
  EXPECT_THROW(DataSchema::compile(R"({"type":"string","pattern":"^a"})"), std::invalid_argument);
  EXPECT_THROW(DataSchema::compile(R"({"oneOf":[]})"), std::invalid_argument);
  EXPECT_THROW(DataSchema::compile(R"({"type":"decimal"})"), std::invalid_argument);
  EXPECT_THROW(DataSchema::compile(R"({"minimum":1.5})"), std::invalid_argument);
  EXPECT_THROW(DataSchema::compile("not json"), std::invalid_argument);
}

TEST(DataSchema, KnowsTheContractsFormats) {
  const auto s = DataSchema::compile(R"({"properties":{"u":{"format":"uuid"},"d":{"format":"decimal"},
    "s":{"format":"sequence"}}})");
  EXPECT_EQ(validate(s, R"({"u":"0b4c5a0e-1f2a-4c3b-8d9e-0123456789ab","d":"115042453602304",
    "s":"0000000000000000002"})"),
            std::nullopt);
  EXPECT_EQ(validate(s, R"({"u":"0b4c5a0e1f2a4c3b8d9e0123456789ab"})"), "/u: is not a UUID");
  EXPECT_EQ(validate(s, R"({"d":"0115"})"), "/d: is not a positive decimal below 2^53");
  EXPECT_EQ(validate(s, R"({"d":"9007199254740992"})"), "/d: is not a positive decimal below 2^53");
  EXPECT_EQ(validate(s, R"({"d":"-1"})"), "/d: is not a positive decimal below 2^53");
  EXPECT_EQ(validate(s, R"({"s":"0000000000000000000"})"), "/s: is not a version of 19 digits from 1");
  EXPECT_EQ(validate(s, R"({"s":"2"})"), "/s: is not a version of 19 digits from 1");
  EXPECT_THROW(DataSchema::compile(R"({"format":"email"})"), std::invalid_argument);
}

TEST(DataSchema, TheHeadersSchemaCompiles) {
  rapidjson::Document headers;
  ASSERT_FALSE(json::parse(R"({"ce_specversion":"1.0"})", headers).has_value());
  EXPECT_EQ(headers_schema().validate(headers), "/: lacks the required member ce_id");
}

TEST(SchemaRegistry, CompilesEveryPublishedSchema) {
  const SchemaRegistry registry;
  EXPECT_GE(embedded_schemas().size(), 20U);
  for (const auto& s : embedded_schemas()) {
    // <type>[.v<N>]: version 1 has no suffix.
    std::string name(s.name);
    int version = 1;
    if (const auto dot = name.rfind(".v"); dot != std::string::npos) {
      version = std::stoi(name.substr(dot + 2));
      name.resize(dot);
    }
    EXPECT_NE(registry.find("io.petstore." + name, version), nullptr) << s.name;
  }
  EXPECT_TRUE(registry.knows_type("io.petstore.pet.created"));
  // Schema evolution: both versions of pet.created, each strict.
  const auto* v1 = registry.find("io.petstore.pet.created", 1);
  const auto* v2 = registry.find("io.petstore.pet.created", 2);
  ASSERT_NE(v1, nullptr);
  ASSERT_NE(v2, nullptr);
  rapidjson::Document described;
  ASSERT_FALSE(
      json::parse(R"({"id":1,"name":"a","categoryId":2,"status":"sold","description":"d"})", described)
          .has_value());
  EXPECT_NE(v1->validate(described), std::nullopt);
  EXPECT_EQ(v2->validate(described), std::nullopt);
  EXPECT_FALSE(registry.knows_type("io.petstore.pet.adopted"));
  EXPECT_EQ(registry.find("io.petstore.pet.created", 7), nullptr);
}

}  // namespace
}  // namespace petstore::audit
