// The projection against Redis itself: a service's fold decides, and
// project.lua writes what it decided. The pets read model stands for the
// four; every service's is exercised end to end by the API tests.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <span>
#include <string>
#include <thread>
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

class ProjectionApplier : public ::testing::Test {
 protected:
  ProjectionApplier()
      : keys_("applier-" + events::new_event_id()), projection_(PetsModel(keys_)), conn_(endpoint()) {
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

// Ids are 53-bit: the largest ones reach Redis digit for digit, in the
// record's fields, its indexes and its category's count.
TEST_F(ProjectionApplier, TheFoldWritesTheRecordAndKeepsLargeIdsExact) {
  constexpr auto kPet = json::kMaxExactInteger;
  constexpr auto kCategory = json::kMaxExactInteger - 1;
  const auto created = envelope(PetCreated{.id = kPet,
                                           .name = "Rex \"the\" ünïcode",
                                           .category_id = kCategory,
                                           .status = PetStatus::Available,
                                           .description = "a dog"},
                                1);
  EXPECT_EQ(projection_.apply_own(conn_, created), projection::ApplyOutcome::Applied);
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

  // A status change carries from and to; the fold keeps the rest of the
  // pet, and moves it between the status indexes.
  const auto changed = envelope(PetStatusChanged{kPet, PetStatus::Available, PetStatus::Sold}, 2);
  EXPECT_EQ(projection_.apply_own(conn_, changed), projection::ApplyOutcome::Applied);
  EXPECT_EQ(field(pet, "status"), "sold");
  EXPECT_EQ(field(pet, "categoryId"), "9007199254740990");
  EXPECT_EQ(field(pet, "name"), "Rex \"the\" ünïcode");
  EXPECT_EQ(redis::as_integer(*conn_.command({"ZCARD", keys_.pets_by_status(PetStatus::Available)})), 0);
  EXPECT_EQ(redis::as_integer(*conn_.command({"ZCARD", keys_.pets_by_status(PetStatus::Sold)})), 1);

  // Deleted: a tombstone that keeps the version, out of every index and
  // count; its history stays.
  const auto deleted = envelope(PetDeleted{kPet}, 3);
  EXPECT_EQ(projection_.apply_own(conn_, deleted), projection::ApplyOutcome::Applied);
  EXPECT_EQ(field(pet, "deleted"), "1");
  EXPECT_EQ(field(pet, "version"), "3");
  EXPECT_EQ(field(pet, "name"), "(nil)");
  EXPECT_EQ(redis::as_integer(*conn_.command({"ZCARD", keys_.all_pets()})), 0);
  EXPECT_EQ(redis::as_integer(*conn_.command({"HGET", keys_.pet_counts(), "9007199254740990"})), 0);
  EXPECT_EQ(redis::as_integer(*conn_.command({"ZCARD", pet + ":history"})), 3);
  // A redelivered older event cannot bring it back.
  EXPECT_EQ(projection_.apply_own(conn_, changed), projection::ApplyOutcome::Duplicate);
  EXPECT_EQ(field(pet, "deleted"), "1");
}

// A read model of the test's own: each event sets "<base>thing:<subject>"
// to its type.
class ThingsModel {
 public:
  struct Event {
    std::string id;
    std::string type;
  };
  struct State {
    std::string type;
  };

  explicit ThingsModel(const es::KeySpace& space) : space_(space) {}

  [[nodiscard]] const es::KeySpace& space() const { return space_; }
  [[nodiscard]] static Event decode(const events::Envelope& env) { return {env.subject, env.type}; }
  [[nodiscard]] std::string key(const Event& e) const { return space_.key("thing:" + e.id); }
  [[nodiscard]] std::vector<projection::Command> reads(const std::vector<const Event*>& batch) const {
    return {{"HGET", key(*batch.front()), "type"}};
  }
  [[nodiscard]] static State state(const std::vector<const Event*>& /*batch*/,
                                   std::span<const redis::Reply> replies) {
    const auto& r = *replies.front();
    return {r.type == REDIS_REPLY_NIL ? "" : std::string(redis::as_string(r))};
  }
  static void evolve(State& s, const Event& e, std::int64_t /*version*/, const std::string& /*time*/) {
    s.type = e.type;
  }
  [[nodiscard]] static projection::Record record(const State& s, const Event& /*e*/) {
    projection::Record r;
    r.fields = {{"type", s.type}};
    return r;
  }

 private:
  es::KeySpace space_;
};

// The write path's own events, each folded from the state its writer
// decided it on (Projection::own_step: nothing read back from Redis), in
// one pipeline (Applier::apply_steps): one outcome each, in order. An
// event already applied is a duplicate; one whose predecessor the read
// model lacks is left to the projection and changes nothing.
TEST_F(ProjectionApplier, OwnEventsFoldedFromTheWritersStateAreAppliedInOnePipelineWithAnOutcomeEach) {
  projection::Projection<ThingsModel> things(ThingsModel(keys_.space()));
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
  ThingsModel::State one;
  ThingsModel::State two;
  ThingsModel::State one_again;
  ThingsModel::State three{"made"};  // the writer folded version 1, which the read model lacks
  const std::vector<projection::Step> steps{
      things.own_step(made(1, 1, "made"), one), things.own_step(made(1, 2, "changed"), one),
      things.own_step(made(2, 1, "made"), two), things.own_step(made(1, 1, "made"), one_again),
      things.own_step(made(3, 2, "changed"), three)};
  EXPECT_EQ(one.type, "changed");  // each step leaves the state as its event made it
  EXPECT_EQ(projection::Applier::apply_steps(conn_, steps),
            (std::vector<projection::ApplyOutcome>{
                projection::ApplyOutcome::Applied, projection::ApplyOutcome::Applied,
                projection::ApplyOutcome::Applied, projection::ApplyOutcome::Duplicate,
                projection::ApplyOutcome::Behind}));
  EXPECT_EQ(field(keys_.base() + "thing:1", "version"), "2");
  EXPECT_EQ(field(keys_.base() + "thing:1", "type"), "changed");
  EXPECT_EQ(field(keys_.base() + "thing:2", "version"), "1");
  EXPECT_EQ(field(keys_.base() + "thing:3", "version"), "(nil)");
  EXPECT_EQ(field(keys_.base() + "thing:3", "type"), "(nil)");
}

// A read model of the test's own that counts: each event adds its data (an
// integer) to "<base>count:<subject>". Folding an event twice shows.
class CounterModel {
 public:
  struct Event {
    std::string id;
    std::int64_t add = 0;
  };
  struct State {
    std::int64_t count = 0;
  };

  // `padding`: bytes of an ECHO sent between the version and the count
  // (Redis serves other clients while it reads a long pipeline).
  CounterModel(const es::KeySpace& space, std::size_t padding, std::function<void()> reading = {})
      : space_(space), padding_(padding), reading_(std::move(reading)) {}

  [[nodiscard]] const es::KeySpace& space() const { return space_; }
  [[nodiscard]] static Event decode(const events::Envelope& env) {
    return {env.subject, std::stoll(env.data)};
  }
  [[nodiscard]] std::string key(const Event& e) const { return space_.key("count:" + e.id); }
  [[nodiscard]] std::vector<projection::Command> reads(const std::vector<const Event*>& batch) const {
    if (reading_) {
      reading_();
    }
    return {{"ECHO", std::string(padding_, 'x')}, {"HGET", key(*batch.front()), "count"}};
  }
  [[nodiscard]] static State state(const std::vector<const Event*>& /*batch*/,
                                   std::span<const redis::Reply> replies) {
    const auto& r = *replies[1];
    return {r.type == REDIS_REPLY_NIL ? 0 : std::stoll(std::string(redis::as_string(r)))};
  }
  static void evolve(State& s, const Event& e, std::int64_t /*version*/, const std::string& /*time*/) {
    s.count += e.add;
  }
  [[nodiscard]] static projection::Record record(const State& s, const Event& /*e*/) {
    projection::Record r;
    r.fields = {{"count", std::to_string(s.count)}};
    return r;
  }

 private:
  es::KeySpace space_;
  std::size_t padding_;
  std::function<void()> reading_;
};

// The projection reads an aggregate's version and its fields in one
// pipeline, not atomically: the write path may apply the aggregate's next
// event between the two. Folding that event again on fields that already
// hold it would count it twice, and every later event on top, for good.
TEST_F(ProjectionApplier, AnEventAppliedBetweenTheVersionAndTheFieldsIsNotFoldedTwice) {
  const auto added = [](std::int64_t version, std::int64_t add) {
    events::Envelope env;
    env.id = events::new_event_id();
    env.type = "added";
    env.source = "/test/counters";
    env.subject = "1";
    env.version = version;
    env.time = "2026-11-29T10:00:00.000Z";
    env.data = std::to_string(add);
    return env;
  };
  const auto first = added(1, 1);
  const auto second = added(2, 10);
  const auto third = added(3, 100);
  projection::Projection<CounterModel> writer(CounterModel(keys_.space(), 0));
  ASSERT_EQ(writer.apply_own(conn_, first), projection::ApplyOutcome::Applied);

  // The write path applies `second` once Redis has run the projection's
  // first read (the version) and is still reading the rest of its
  // pipeline: CLIENT LIST names that read as the connection's last command.
  conn_.command({"CLIENT", "SETNAME", "projection"});
  std::atomic<bool> reading{false};
  std::atomic<bool> done{false};
  std::thread write_path([&] {
    redis::Connection own(endpoint());
    while (!reading) {
      std::this_thread::yield();
    }
    bool between = false;
    while (!between && !done) {
      const auto clients = std::string(redis::as_string(*own.command({"CLIENT", "LIST"})));
      const auto at = clients.find("name=projection ");
      between = at != std::string::npos &&
                clients.substr(at, clients.find('\n', at) - at).find(" cmd=hget ") != std::string::npos;
    }
    ASSERT_TRUE(between) << "the write path never ran between the projection's reads";
    EXPECT_EQ(writer.apply_own(own, second), projection::ApplyOutcome::Applied);
  });
  projection::Projection<CounterModel> projection(
      CounterModel(keys_.space(), std::size_t{16} * 1024 * 1024, [&] { reading = true; }));
  std::vector<kafka::Message> batch;
  for (const auto* e : {&second, &third}) {
    const auto record = events::to_record("counters", *e);
    batch.push_back({record.topic, 0, e->version - 1, record.key, record.value, record.headers});
  }
  projection::Applied applied;
  EXPECT_TRUE(projection::apply_batch(conn_, projection, batch, applied).empty());
  done = true;
  write_path.join();
  EXPECT_EQ(field(keys_.base() + "count:1", "version"), "3");
  EXPECT_EQ(field(keys_.base() + "count:1", "count"), "111");
}

// What the decoder refuses is never folded: the record is skipped and only
// its position recorded.
TEST_F(ProjectionApplier, ARecordTheDecoderRefusesOnlyMovesThePosition) {
  auto beyond =
      envelope(PetCreated{.id = 7, .name = "x", .category_id = 1, .status = PetStatus::Available}, 1);
  beyond.data = R"({"id":7,"name":"x","categoryId":9007199254740992,"status":"available"})";
  EXPECT_THROW((void)json::EventFields(beyond.data).integer("categoryId"), std::invalid_argument);
  auto other =
      envelope(PetCreated{.id = 8, .name = "y", .category_id = 1, .status = PetStatus::Available}, 1);
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
