// Redis refusing a command (an error reply, not an outage) under the pets
// service: before anything is appended it is 503 store_refused and the log
// holds nothing of it; once an event is committed, no Redis failure changes
// the write's 2xx (projection::OwnEvents), so a client never retries a
// write that is in the log. The deployment runs on a Redis of its own,
// which the test starves (maxmemory, noeviction) or poisons (a key of the
// wrong type). A category the log holds but Redis could not take yet is
// known all the same: its writer decides from the log.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <string>
#include <thread>

#include "kafka/producer.h"
#include "pets/projection/keys.h"
#include "support/http_json.h"
#include "support/own_redis.h"
#include "support/service_process.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

// The pets topic's events about `pet` of type `type` (ce_type).
size_t events_of(const std::string& topic, std::int64_t pet, const std::string& type) {
  size_t n = 0;
  for (const auto& m : read_topic(topic)) {
    const auto* t = m.header("ce_type");
    const auto* subject = m.header("ce_subject");
    n += t != nullptr && *t == type && subject != nullptr && *subject == std::to_string(pet) ? size_t{1}
                                                                                             : size_t{0};
  }
  return n;
}

size_t records(const std::string& topic) {
  return read_topic(topic).size();
}

TEST(PetsRedisRefusal, AnErrorReplyBeforeTheAppendIs503AndNothingIsWritten) {
  OwnRedis redis;
  PetsDeployment pets(1, {{"REDIS_PORT", std::to_string(redis.port())}});
  auto http = pets.replica(0).client();
  const auto category = post_retrying(*http, "/categories", R"({"name":"Starved"})", "starved-category");
  ASSERT_TRUE(category && category->status == 201) << (category ? category->body : "no answer");
  const auto before = records(pets.pets_topic());

  auto admin = redis.connect();
  ASSERT_FALSE(redis::is_error(*admin.command({"CONFIG", "SET", "maxmemory-policy", "noeviction"})));
  ASSERT_FALSE(redis::is_error(*admin.command({"CONFIG", "SET", "maxmemory", "1"})));
  for (int i = 0; i < 3; ++i) {
    const auto r = post_json(*http, "/pets",
                             R"({"name":"Starved","categoryId":)" + std::to_string(id_of(category)) + "}");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 503) << r->body;
    EXPECT_EQ(error_code(r), "store_refused");
    EXPECT_TRUE(r->has_header("Retry-After"));
  }
  ASSERT_FALSE(redis::is_error(*admin.command({"CONFIG", "SET", "maxmemory", "0"})));
  EXPECT_EQ(records(pets.pets_topic()), before) << "a write answered 503 store_refused is in the log";
}

TEST(PetsRedisRefusal, AnErrorReplyAfterTheCommitLeavesTheWrite2xx) {
  OwnRedis redis;
  PetsDeployment pets(1, {{"REDIS_PORT", std::to_string(redis.port())}});
  auto http = pets.replica(0).client();
  const auto category = post_retrying(*http, "/categories", R"({"name":"Poisoned"})", "poisoned-category");
  ASSERT_TRUE(category && category->status == 201);
  const auto pet =
      post_retrying(*http, "/pets", R"({"name":"Rex","categoryId":)" + std::to_string(id_of(category)) + "}",
                    "poisoned-pet");
  ASSERT_TRUE(pet && pet->status == 201);
  const auto id = id_of(pet);

  // The pet's read-model hash turned into a string: every command on it
  // is refused with WRONGTYPE, the write path's own apply included.
  auto admin = redis.connect();
  const auto key = pets::PetKeys(pets.prefix()).pet(id);
  ASSERT_FALSE(redis::is_error(*admin.command({"DEL", key})));
  ASSERT_FALSE(redis::is_error(*admin.command({"SET", key, "poison"})));
  const auto r = put_json(*http, "/pets/" + std::to_string(id) + "/status", R"({"status":"pending"})");
  ASSERT_TRUE(r);
  const auto appended = events_of(pets.pets_topic(), id, "io.petstore.pet.status_changed");
  // The writer decides from its own fold of the log, not from Redis: the
  // change is appended, and only the write path's apply meets the poison.
  EXPECT_EQ(appended, 1U);
  EXPECT_EQ(r->status, 200) << "a write that is in the log was answered " << r->status << ": " << r->body;
}

// A pets deployment on `redis` without the rate limiter (its own writes
// would be refused before the command's) and with a short catch-up.
std::map<std::string, std::string> on_own_redis(const OwnRedis& redis) {
  return {
      {"REDIS_PORT", std::to_string(redis.port())}, {"RATE_LIMIT", "off"}, {"CATCH_UP_TIMEOUT_MS", "1000"}};
}

void set_maxmemory(redis::Connection& admin, const std::string& bytes) {
  ASSERT_FALSE(redis::is_error(*admin.command({"CONFIG", "SET", "maxmemory-policy", "noeviction"})));
  ASSERT_FALSE(redis::is_error(*admin.command({"CONFIG", "SET", "maxmemory", bytes})));
}

// A new category, created while Redis refuses every write: appended, then
// left to the projection, which Redis refuses too. Returns the body of a
// pet in it, or "" (a failure) when the category was not created.
std::string pet_in_unprojected_category(httplib::Client& http, redis::Connection& admin) {
  set_maxmemory(admin, "1");
  const auto category = post_json(http, "/categories", R"({"name":"Unprojected"})");
  EXPECT_TRUE(category && category->status == 201) << (category ? category->body : "no answer");
  return category && category->status == 201
             ? R"({"name":"Rex","categoryId":)" + std::to_string(id_of(category)) + "}"
             : "";
}

void expect_lagging(const httplib::Result& r) {
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503) << "a delete that cannot count every pet was answered " << r->body;
  EXPECT_EQ(error_code(r), "projection_lagging");
  EXPECT_TRUE(r->has_header("Retry-After"));
}

// A pet's category is known to the category's writer, from the log: a
// category the read model lacks takes pets all the same, and one that
// never existed is unknown.
TEST(PetsRedisRefusal, ACategoryInTheLogThatRedisRefusedTakesPets) {
  OwnRedis redis;
  PetsDeployment pets(1, on_own_redis(redis));
  auto http = pets.replica(0).client();
  auto admin = redis.connect();
  const auto body = pet_in_unprojected_category(*http, admin);
  ASSERT_FALSE(body.empty());
  const auto created = post_json(*http, "/pets", body);
  ASSERT_TRUE(created);
  EXPECT_EQ(created->status, 201) << created->body;

  set_maxmemory(admin, "0");
  const auto unknown = post_json(*http, "/pets", R"({"name":"Rex","categoryId":1})");
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->status, 422) << unknown->body;
  EXPECT_EQ(error_code(unknown), "unknown_category");
}

// A pet's record behind another producer's open transaction on its
// partition: appended, but not yet readable by a read_committed consumer
// (the last stable offset stops at the open transaction), so the read
// model cannot count it. A delete of its category that counted up to the
// last stable offset would find the category empty; it must wait for the
// high watermark, and answers 503 projection_lagging until it can.
TEST(PetsRedisRefusal, APetBehindAnOpenTransactionIsWaitedForNotMissed) {
  OwnRedis redis;
  PetsDeployment pets(1, on_own_redis(redis));
  auto http = pets.replica(0).client();
  const auto category = post_retrying(*http, "/categories", R"({"name":"Held"})", "held-category");
  ASSERT_TRUE(category && category->status == 201);
  const auto path = "/categories/" + std::to_string(id_of(category));
  kafka::Producer open(kafka::ProducerSettings{Stack::get().kafka_brokers, "open-transaction", 0, 5000,
                                               unique_name("open-transaction"), 60'000});
  open.init_transactions(10'000);
  open.begin_transaction();
  for (std::int32_t p = 0; p < open.partitions(pets.pets_topic()); ++p) {
    open.send_to({pets.pets_topic(), "held", "not an event"}, p).wait();
  }
  const auto pet =
      post_json(*http, "/pets", R"({"name":"Rex","categoryId":)" + std::to_string(id_of(category)) + "}");
  ASSERT_TRUE(pet);
  ASSERT_EQ(pet->status, 201) << pet->body;
  expect_lagging(http->Delete(path));

  open.abort_transaction(10'000);
  auto refused = http->Delete(path);
  for (int attempt = 0; attempt < 10 && refused && refused->status == 503; ++attempt) {
    std::this_thread::sleep_for(std::chrono::seconds(1));  // the projection catching up
    refused = http->Delete(path);
  }
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 409) << refused->body;
  EXPECT_EQ(error_code(refused), "category_in_use");
}

}  // namespace
}  // namespace petstore::testing
