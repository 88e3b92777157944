// The projection glue against Redis itself: a service's apply.lua reads the
// event (decoded once by apply_prelude.lua with cjson), never a positional
// list of its fields. The pets script stands for the three; every service's
// script is exercised end to end by the API tests.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "events/envelope.h"
#include "events/kafka_binding.h"
#include "json/event_fields.h"
#include "pets/domain/events.h"
#include "pets/projection/pets_projection.h"
#include "projection/runner.h"
#include "redis/connection.h"
#include "support/stack.h"

namespace petstore::pets {
namespace {

class ProjectionScripts : public ::testing::Test {
 protected:
  ProjectionScripts() : keys_("scripts-" + events::new_event_id()), projection_(keys_), conn_(endpoint()) {
    conn_.command({"SET", keys_.space().ready_marker(), "test"});
  }

  static redis::Endpoint endpoint() { return petstore::testing::Stack::get().redis_endpoint(); }

  static events::Envelope envelope(const Event& e, std::int64_t version) {
    events::Envelope env;
    env.id = events::new_event_id();
    env.type = std::string(type_of(e));
    env.source = "/petstore/pets";
    env.subject = std::to_string(aggregate_of(e));
    env.version = version;
    env.time = "2026-11-23T10:00:00.123Z";
    env.schema_version = schema_version_of(e);
    env.data = encode(e);
    return env;
  }

  std::string field(const std::string& key, const char* name) {
    const auto reply = conn_.command({"HGET", key, name});
    return reply->type == REDIS_REPLY_STRING ? std::string(redis::as_string(*reply)) : "(nil)";
  }

  PetKeys keys_;
  PetsProjection projection_;
  redis::Connection conn_;
};

// Ids are 53-bit: the largest ones must reach Redis digit for digit, where
// Lua's own number formatting (%.14g) would write 9.007199254741e+15.
TEST_F(ProjectionScripts, TheScriptReadsTheEventItselfAndKeepsLargeIdsExact) {
  constexpr auto kPet = json::kMaxExactInteger;
  constexpr auto kCategory = json::kMaxExactInteger - 1;
  const auto created =
      envelope(PetCreated{kPet, "Rex \"the\" ünïcode", kCategory, PetStatus::Available, "a dog"}, 1);
  EXPECT_EQ(projection_.apply_own(conn_, created), es::ApplyOutcome::Applied);
  const auto pet = keys_.pet(kPet);
  EXPECT_EQ(field(pet, "categoryId"), "9007199254740990");
  EXPECT_EQ(field(pet, "name"), "Rex \"the\" ünïcode");
  EXPECT_EQ(field(pet, "description"), "a dog");
  EXPECT_EQ(field(pet, "status"), "available");
  EXPECT_EQ(field(pet, "version"), "1");
  EXPECT_EQ(field(pet, "createdAt"), "2026-11-23T10:00:00.123Z");
  const auto counted = conn_.command({"HGET", keys_.pet_counts(), "9007199254740990"});
  EXPECT_EQ(redis::as_string(*counted), "1");
  const auto all = conn_.command({"ZRANGE", keys_.base() + "pets:all", "0", "-1"});
  ASSERT_EQ(all->elements, 1U);
  EXPECT_EQ(redis::as_string(*all->element[0]), "9007199254740991");

  // The same event again, from the log: a duplicate, position recorded.
  kafka::Message m;
  const auto record = events::to_record("pets-topic", created);
  m.topic = record.topic;
  m.partition = 0;
  m.offset = 0;
  m.key = record.key;
  m.value = record.value;
  m.headers = record.headers;
  projection::Applied applied;
  EXPECT_TRUE(projection::apply_batch(conn_, projection_, {m}, applied).empty());
  EXPECT_EQ(field(pet, "version"), "1");

  // A status change carries from and to; the script takes `to`.
  const auto changed = envelope(PetStatusChanged{kPet, PetStatus::Available, PetStatus::Sold}, 2);
  EXPECT_EQ(projection_.apply_own(conn_, changed), es::ApplyOutcome::Applied);
  EXPECT_EQ(field(pet, "status"), "sold");
  EXPECT_EQ(field(pet, "categoryId"), "9007199254740990");
}

// A script of the test's own, new to Redis (its source names the test's key
// space, so its digest is one Redis has never cached): each event sets
// "<base>thing:<subject>" to its type and version.
class Things : public projection::ScriptApplier {
 public:
  explicit Things(const es::KeySpace& space)
      : ScriptApplier(space, "-- " + space.base() + R"(
local key = base .. 'thing:' .. subject
local verdict = version_verdict(key, version)
if verdict then
  return verdict
end
redis.call('HSET', key, 'version', version, 'type', etype)
record_position()
return 'applied'
)",
                      "things") {}

 protected:
  void check(const events::Envelope&) const override {}
};

// The write path's own events of a batch in one pipeline
// (ScriptApplier::apply_own_each): one outcome each, in order, as apply_own
// one after another would give; a script Redis has not cached (a restart,
// SCRIPT FLUSH) is loaded and the batch sent again.
TEST_F(ProjectionScripts, ABatchOfOwnEventsIsAppliedInOnePipelineWithAnOutcomeEach) {
  const Things things(keys_.space());
  const auto made = [](std::int64_t id, std::int64_t version, const char* type) {
    events::Envelope env;
    env.id = events::new_event_id();
    env.type = type;
    env.source = "/test/things";
    env.subject = std::to_string(id);
    env.version = version;
    env.time = "2026-11-26T10:00:00.000Z";
    env.data = "{}";
    return env;
  };
  const std::vector<events::Envelope> batch{made(1, 1, "made"), made(1, 2, "changed"), made(2, 1, "made"),
                                            made(1, 1, "made"), made(3, 2, "changed")};
  std::vector<const events::Envelope*> envelopes;
  envelopes.reserve(batch.size());
  for (const auto& e : batch) {
    envelopes.push_back(&e);
  }
  const auto cached = [&] {
    const auto r = conn_.command({"SCRIPT", "EXISTS", things.scripts().at(0)->sha()});
    return r->elements == 1 && r->element[0]->integer == 1;
  };
  ASSERT_FALSE(cached()) << "the first pipeline meets NOSCRIPT";
  EXPECT_EQ(things.apply_own_each(conn_, envelopes),
            (std::vector<es::ApplyOutcome>{es::ApplyOutcome::Applied, es::ApplyOutcome::Applied,
                                           es::ApplyOutcome::Applied, es::ApplyOutcome::Duplicate,
                                           es::ApplyOutcome::Behind}));
  EXPECT_EQ(field(keys_.base() + "thing:1", "version"), "2");
  EXPECT_EQ(field(keys_.base() + "thing:1", "type"), "changed");
  EXPECT_EQ(field(keys_.base() + "thing:2", "version"), "1");
  EXPECT_EQ(field(keys_.base() + "thing:3", "version"), "(nil)");
  EXPECT_TRUE(cached());
}

// What the decoder refuses never reaches the script: the record is skipped
// and only its position recorded.
TEST_F(ProjectionScripts, ARecordTheDecoderRefusesOnlyMovesThePosition) {
  auto beyond = envelope(PetCreated{7, "x", 1, PetStatus::Available, std::nullopt}, 1);
  beyond.data = R"({"id":7,"name":"x","categoryId":9007199254740992,"status":"available"})";
  EXPECT_THROW((void)json::EventFields(beyond.data).integer("categoryId"), std::invalid_argument);
  auto other = envelope(PetCreated{8, "y", 1, PetStatus::Available, std::nullopt}, 1);
  other.subject = "9";  // the payload names pet 8

  std::vector<kafka::Message> batch;
  std::int64_t offset = 0;
  for (const auto& e : {beyond, other}) {
    const auto record = events::to_record("pets-topic", e);
    kafka::Message m;
    m.topic = record.topic;
    m.offset = offset++;
    m.key = record.key;
    m.value = record.value;
    m.headers = record.headers;
    batch.push_back(m);
  }
  projection::Applied applied;
  EXPECT_TRUE(projection::apply_batch(conn_, projection_, batch, applied).empty());
  EXPECT_EQ(field(keys_.offsets(), "pets-topic:0"), "1");
  for (const auto id : {7, 8, 9}) {
    EXPECT_EQ(redis::as_integer(*conn_.command({"EXISTS", keys_.pet(id)})), 0) << id;
  }
}

}  // namespace
}  // namespace petstore::pets
