#include "events/envelope.h"
#include "events/kafka_binding.h"

#include <regex>

#include <gtest/gtest.h>

namespace petstore::events {
namespace {

kafka::Message as_message(const kafka::Record& r) {
  kafka::Message m;
  m.topic = r.topic;
  m.key = r.key;
  m.value = r.value;
  m.headers = r.headers;
  return m;
}

// Pet 42's creation at `version`, its data at `schema_version`, with no trace.
Envelope pet_42_created(std::int64_t version, int schema_version) {
  return {new_event_id(),
          "io.petstore.pet.created",
          "/petstore/pets",
          "42",
          version,
          "2026-11-22T01:02:03.004Z",
          schema_version,
          R"({"id":42})",
          "",
          ""};
}

TEST(Envelope, RoundTripsThroughKafkaHeaders) {
  const auto e = pet_42_created(3, 1);
  const auto record = to_record("t", e);
  EXPECT_EQ(record.key, "42");
  EXPECT_EQ(*as_message(record).header("ce_sequence"), "0000000000000000003");
  EXPECT_EQ(*as_message(record).header("ce_specversion"), "1.0");
  const auto back = from_message(as_message(record));
  EXPECT_EQ(back.id, e.id);
  EXPECT_EQ(back.type, e.type);
  EXPECT_EQ(back.aggregate_id(), 42);
  EXPECT_EQ(back.version, 3);
  EXPECT_EQ(back.data, e.data);
}

TEST(Envelope, RefusesRecordsThatAreNotOurEvents) {
  kafka::Message plain;
  plain.value = "hello";
  EXPECT_THROW(from_message(plain), std::invalid_argument);
  Envelope e{new_event_id(), "t", "/s", "1", 0, "now", 1, "{}", "", ""};
  EXPECT_THROW(from_message(as_message(to_record("t", e))), std::invalid_argument);  // version 0
}

TEST(Envelope, SequenceOrdersLexicographically) {
  EXPECT_LT(format_sequence(9), format_sequence(10));
  EXPECT_EQ(parse_sequence(format_sequence(1234567)), 1234567);
}

TEST(Envelope, EventIdsAreUuidV4AndDistinct) {
  const std::regex v4("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  const auto a = new_event_id();
  EXPECT_TRUE(std::regex_match(a, v4)) << a;
  EXPECT_NE(a, new_event_id());
}

TEST(Envelope, TimeIsRfc3339Utc) {
  const auto t = std::chrono::system_clock::time_point(std::chrono::milliseconds(1'790'812'800'123));
  EXPECT_EQ(format_time(t), "2026-10-01T00:00:00.123Z");
}

TEST(Envelope, DataschemaNamesTheSchemaFileOfTheVersion) {
  EXPECT_EQ(dataschema_for("io.petstore.pet.created", 1),
            "https://petstore.example/schemas/events/pet.created.json");
  EXPECT_EQ(dataschema_for("io.petstore.pet.created", 2),
            "https://petstore.example/schemas/events/pet.created.v2.json");
  // Records written before the URI carry the path alone: still the schema's name.
  EXPECT_TRUE(is_dataschema_of("schemas/events/pet.created.v2.json", "io.petstore.pet.created", 2));
  EXPECT_FALSE(is_dataschema_of("https://elsewhere.example/schemas/events/pet.created.json",
                                "io.petstore.pet.created", 1));
  // The check a reader makes without building the name agrees with it.
  for (const auto* type : {"io.petstore.pet.created", "io.petstore.order.placed"}) {
    for (const int version : {1, 2, 12}) {
      EXPECT_TRUE(is_dataschema_of(dataschema_for(type, version), type, version)) << type << version;
    }
  }
  EXPECT_FALSE(is_dataschema_of("schemas/events/pet.created.json", "io.petstore.pet.created", 2));
  EXPECT_FALSE(is_dataschema_of("schemas/events/pet.created.v2.json", "io.petstore.pet.created", 1));
  EXPECT_FALSE(is_dataschema_of("schemas/events/pet.created.v2.json", "io.petstore.pet.created", 22));
  EXPECT_FALSE(is_dataschema_of("schemas/events/pet.created.v22.json", "io.petstore.pet.created", 2));
  EXPECT_FALSE(is_dataschema_of("schemas/events/pet.updated.json", "io.petstore.pet.created", 1));
  EXPECT_FALSE(is_dataschema_of("schemas/events/pet.created.json ", "io.petstore.pet.created", 1));
  EXPECT_FALSE(is_dataschema_of("/schemas/events/pet.created.json", "io.petstore.pet.created", 1));
  EXPECT_FALSE(is_dataschema_of("", "io.petstore.pet.created", 1));
  const auto e = pet_42_created(1, 2);
  EXPECT_EQ(*as_message(to_record("t", e)).header("ce_dataschema"),
            "https://petstore.example/schemas/events/pet.created.v2.json");
}

// The history resources serve this form; the write path and the projection
// each build it from their own envelope, and the two must agree byte for
// byte (petstore-audit rebuild compares them).
TEST(Envelope, StructuredJsonIsTheSameFromEitherSideOfTheLog) {
  const Envelope e{"0b4c5a0e-1111-4222-8333-444455556666",
                   "io.petstore.pet.created",
                   "/petstore/pets",
                   "42",
                   3,
                   "2026-11-22T01:02:03.004Z",
                   2,
                   R"({"id":42,"name":"Rex"})",
                   "",
                   ""};
  const auto json = to_structured_json(e);
  EXPECT_EQ(
      json,
      R"({"specversion":"1.0","id":"0b4c5a0e-1111-4222-8333-444455556666","source":"/petstore/pets",)"
      R"("type":"io.petstore.pet.created","subject":"42","time":"2026-11-22T01:02:03.004Z",)"
      R"("datacontenttype":"application/json","dataschema":"https://petstore.example/schemas/events/pet.created.v2.json",)"
      R"("sequence":"0000000000000000003","schemaversion":"2","data":{"id":42,"name":"Rex"}})");
  EXPECT_EQ(to_structured_json(from_message(as_message(to_record("t", e)))), json);
}

// The distributed-tracing extension: ce_traceparent and ce_tracestate on
// the record, traceparent and tracestate in the structured form; absent
// from both when the event has no trace.
TEST(Envelope, CarriesItsTraceContextBothWays) {
  Envelope e{"0b4c5a0e-1111-4222-8333-444455556666",
             "io.petstore.pet.created",
             "/petstore/pets",
             "42",
             1,
             "2026-11-22T01:02:03.004Z",
             1,
             R"({"id":42})",
             "",
             ""};
  auto plain = to_record("t", e);
  for (const auto& h : plain.headers) {
    EXPECT_FALSE(h.name.starts_with("ce_trace")) << h.name;
  }
  EXPECT_EQ(to_structured_json(e).find("trace"), std::string::npos);

  e.traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  e.tracestate = "congo=t61rcWkgMzE";
  const auto back = from_message(as_message(to_record("t", e)));
  EXPECT_EQ(back.traceparent, e.traceparent);
  EXPECT_EQ(back.tracestate, e.tracestate);
  const auto json = to_structured_json(e);
  EXPECT_NE(
      json.find(
          R"("schemaversion":"1","traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",)"
          R"("tracestate":"congo=t61rcWkgMzE","data":)"),
      std::string::npos)
      << json;
  EXPECT_EQ(to_structured_json(back), json);
}

TEST(Envelope, NameBasedIdsAreVersion5UuidsOfTheStoresNamespace) {
  // Python: uuid.uuid5(uuid.UUID("aff3c6c0-2c4d-4387-ba90-870388d41f0c"), "x")
  EXPECT_EQ(name_based_event_id("x"), "9469dbee-99b9-59da-8376-350ffc925481");
  EXPECT_EQ(name_based_event_id("x"), name_based_event_id("x"));
  EXPECT_NE(name_based_event_id("x"), name_based_event_id("y"));
}

}  // namespace
}  // namespace petstore::events
