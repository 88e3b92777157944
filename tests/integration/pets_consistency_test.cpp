// Two or more pets replicas sharing one broker and Redis, receiving
// conflicting commands at the same moment (docs/consistency.md).
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <random>
#include <thread>

#include "support/http_json.h"
#include "support/log_fold.h"
#include "support/service_process.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

struct Ack {
  std::int64_t pet;
  std::int64_t version;
};

// Fires `threads` x `per_thread` conflicting writes at the pets, spreading
// them over the replicas, and returns every acknowledged (2xx) write.
std::vector<Ack> conflicting_writes(PetsDeployment& d, const std::vector<std::int64_t>& pets,
                                    std::int64_t category, int threads, int per_thread,
                                    std::atomic<int>* failures = nullptr,
                                    std::atomic<int>* progress = nullptr) {
  std::mutex mu;
  std::vector<Ack> acks;
  std::vector<std::thread> workers;
  workers.reserve(static_cast<size_t>(threads));
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      std::mt19937 rng(static_cast<unsigned>(t));
      for (int i = 0; i < per_thread; ++i) {
        auto& replica = d.replica(static_cast<size_t>(t + i) % d.size());
        auto http = replica.client();
        const auto pet = pets[rng() % pets.size()];
        const auto path = "/pets/" + std::to_string(pet);
        httplib::Result r = [&] {
          switch (rng() % 3) {
            case 0:
              return put_json(*http, path,
                              R"({"name":"n)" + std::to_string(t) + "-" + std::to_string(i) +
                                  R"(","categoryId":)" + std::to_string(category) + "}");
            case 1:
              return put_json(*http, path + "/status",
                              rng() % 2 ? R"({"status":"pending"})" : R"({"status":"available"})");
            default: {
              // Optimistic concurrency: read, then write only if unchanged.
              const auto current = http->Get((path + "/profile").c_str());
              const auto etag = current ? current->get_header_value("ETag") : "\"0\"";
              return put_json(*http, path,
                              R"({"name":"m)" + std::to_string(t) + "-" + std::to_string(i) +
                                  R"(","categoryId":)" + std::to_string(category) + "}",
                              {{"If-Match", etag}});
            }
          }
        }();
        if (progress != nullptr) {
          ++*progress;
        }
        if (r && r->status == 200) {
          const auto etag = r->get_header_value("ETag");
          const std::lock_guard lock(mu);
          acks.push_back({pet, std::stoll(etag.substr(1, etag.size() - 2))});
        } else if (failures != nullptr && (!r || r->status >= 500)) {
          ++*failures;
        } else if (r) {
          EXPECT_TRUE(r->status == 412 || r->status == 409) << r->status << " " << r->body;
        }
      }
    });
  }
  for (auto& w : workers) {
    w.join();
  }
  return acks;
}

// Asserts Redis, read through the API of every replica, equals the fold.
void expect_read_model_equals_fold(PetsDeployment& d, const FoldedLog& log) {
  for (size_t i = 0; i < d.size(); ++i) {
    auto http = d.replica(i).client();
    for (const auto& [id, pet] : log.state.pets) {
      const auto r = http->Get(("/pets/" + std::to_string(id) + "/profile").c_str());
      ASSERT_TRUE(r);
      ASSERT_EQ(r->status, 200) << r->body;
      const auto body = parse(r->body);
      EXPECT_EQ(body["name"].GetString(), pet.name);
      EXPECT_EQ(body["categoryId"].GetInt64(), pet.category_id);
      EXPECT_EQ(body["status"].GetString(), std::string(pets::to_string(pet.status)));
      EXPECT_EQ(body["version"].GetInt64(), pet.version);
    }
    for (const auto& [id, versions] : log.versions) {
      if (!log.state.pets.contains(id) && !log.state.categories.contains(id)) {
        const auto r = http->Get(("/pets/" + std::to_string(id) + "/profile").c_str());
        EXPECT_EQ(r->status, 404) << "deleted aggregate " << id << " is still readable";
      }
    }
  }
  for (const auto& [id, category] : log.state.categories) {
    const auto count = redis_command({"HGET", d.redis_key_base() + "cat:counts", std::to_string(id)});
    ASSERT_EQ(count.size(), 1U);
    EXPECT_EQ(std::stoll(count[0]), category.pet_count) << "category " << id;
  }
}

std::vector<std::int64_t> create_pets(httplib::Client& http, std::int64_t category, int n) {
  std::vector<std::int64_t> pets;
  pets.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    pets.push_back(
        id_of(post_json(http, "/pets", R"({"name":"p","categoryId":)" + std::to_string(category) + "}")));
  }
  return pets;
}

class PetsConsistency : public ::testing::Test {};

TEST_F(PetsConsistency, ConflictingUpdatesOnTwoReplicasKeepEveryHistoryValid) {
  PetsDeployment d(2);
  auto http = d.replica(0).client();
  const auto category = id_of(post_json(*http, "/categories", R"({"name":"Dogs"})"));
  const auto pets = create_pets(*http, category, 3);

  const auto acks = conflicting_writes(d, pets, category, 8, 25);
  ASSERT_GT(acks.size(), 100U);

  const auto log = fold_topics({d.categories_topic(), d.pets_topic()});
  EXPECT_TRUE(log.violations.empty()) << log.violations.front();
  for (const auto& ack : acks) {
    const auto& versions = log.versions.at(ack.pet);
    EXPECT_NE(std::find(versions.begin(), versions.end(), ack.version), versions.end())
        << "acknowledged version " << ack.version << " of pet " << ack.pet << " is not in the log";
  }
  expect_read_model_equals_fold(d, log);
}

TEST_F(PetsConsistency, AWriteAcknowledgedByOneReplicaIsReadableAtOnceOnTheOther) {
  PetsDeployment d(2);
  auto a = d.replica(0).client();
  auto b = d.replica(1).client();
  const auto category = std::to_string(id_of(post_json(*a, "/categories", R"({"name":"Dogs"})")));
  for (int i = 0; i < 30; ++i) {
    auto& writer = i % 2 == 0 ? *a : *b;
    auto& reader = i % 2 == 0 ? *b : *a;
    const auto created = post_json(writer, "/pets", R"({"name":"p","categoryId":)" + category + "}");
    ASSERT_EQ(created->status, 201);
    const auto path = "/pets/" + std::to_string(id_of(created));
    ASSERT_EQ(reader.Get((path + "/profile").c_str())->status, 200)
        << "create not visible on the other replica";
    ASSERT_EQ(put_json(writer, path + "/status", R"({"status":"pending"})")->status, 200);
    EXPECT_STREQ(parse(reader.Get((path + "/profile").c_str())->body)["status"].GetString(), "pending");
    ASSERT_EQ(writer.Delete(path.c_str())->status, 204);
    EXPECT_EQ(reader.Get((path + "/profile").c_str())->status, 404)
        << "delete not visible on the other replica";
  }
}

TEST_F(PetsConsistency, StaleLockOfADeadHolderIsTakenOverAndALiveOneIsRespected) {
  PetsDeployment d(1, {{"LOCK_WAIT_MS", "400"}});
  // Categories still take the Redis lock (pets have the single writer).
  auto http = d.replica(0).client();
  const auto category = id_of(post_json(*http, "/categories", R"({"name":"Dogs"})"));
  const auto path = "/categories/" + std::to_string(category);
  const auto lock = d.redis_key_base() + "lock:cat:" + std::to_string(category);

  // A holder that died: its lease ended long ago.
  redis_command({"SET", lock, "dead-holder|1"});
  auto r = put_json(*http, path, R"({"name":"Hounds"})");
  EXPECT_EQ(r->status, 200) << r->body;

  // A live holder: its lease runs for another minute.
  redis_command(
      {"EVAL",
       "local t = redis.call('TIME') return redis.call('SET', KEYS[1], 'live|' .. (t[1] * 1000 + 60000))",
       "1", lock});
  r = put_json(*http, path, R"({"name":"Wolves"})");
  EXPECT_EQ(r->status, 409);
  EXPECT_EQ(error_code(r), "concurrent_update");
  EXPECT_FALSE(r->get_header_value("Retry-After").empty());
  redis_command({"DEL", lock});
}

TEST_F(PetsConsistency, AHolderWhoseCatchUpOutlastsItsLeaseDoesNotAppend) {
  // Lease 4.5 s, appends bounded at 1 s (+ 1.25 s for a late delivery
  // report), catch-up allowed 10 s: without bounding the catch-up by the
  // lease, two holders could both wait it out and both append the same
  // version.
  PetsDeployment d(1, {{"COMMAND_LEASE_MS", "4500"},
                       {"KAFKA_DELIVERY_TIMEOUT_MS", "1000"},
                       {"CATCH_UP_TIMEOUT_MS", "10000"},
                       {"LOCK_WAIT_MS", "8000"}});
  // Categories still take the Redis lock (pets have the single writer).
  auto http = d.replica(0).client();
  const auto category = id_of(post_json(*http, "/categories", R"({"name":"Dogs"})"));
  const auto path = "/categories/" + std::to_string(category);

  // Let the projection apply the events (it is idle from then on, so it will
  // not move the positions set below).
  const auto offsets = d.redis_key_base() + "proj:offsets";
  for (const auto& topic : {d.categories_topic(), d.pets_topic()}) {
    for (const auto& m : read_topic(topic)) {
      const auto field = topic + ":" + std::to_string(m.partition);
      for (int i = 0; i < 200; ++i) {
        const auto applied = redis_command({"HGET", offsets, field});
        if (!applied.empty() && !applied[0].empty() && std::stoll(applied[0]) >= m.offset) {
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
  }
  // Make the read model look behind the log and leave a dead holder's lock behind.
  const auto saved = redis_command({"HGETALL", offsets});
  for (size_t i = 0; i + 1 < saved.size(); i += 2) {
    redis_command({"HSET", offsets, saved[i], "-1"});
  }
  redis_command({"SET", d.redis_key_base() + "lock:cat:" + std::to_string(category), "dead|1"});

  int first = 0;
  int second = 0;
  std::thread a([&] { first = put_json(*d.replica(0).client(), path, R"({"name":"Hounds"})")->status; });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::thread b([&] { second = put_json(*d.replica(0).client(), path, R"({"name":"Wolves"})")->status; });
  // The second request takes the lock over when the first one's lease ends
  // (4.5 s); only then does the read model "catch up".
  std::this_thread::sleep_for(std::chrono::milliseconds(5500));
  for (size_t i = 0; i + 1 < saved.size(); i += 2) {
    redis_command({"HSET", offsets, saved[i], saved[i + 1]});
  }
  a.join();
  b.join();

  EXPECT_EQ(first, 503) << "the first holder's lease ended while it waited; it must not append";
  EXPECT_EQ(second, 200);
  const auto log = fold_topics({d.categories_topic(), d.pets_topic()});
  EXPECT_TRUE(log.violations.empty()) << log.violations.front();
  EXPECT_EQ(log.versions.at(category), (std::vector<std::int64_t>{1, 2}));
}

TEST_F(PetsConsistency, AReplicaKilledMidStreamLeavesTheLogValidAndTheReadModelConverges) {
  PetsDeployment d(2, {{"KAFKA_DELIVERY_TIMEOUT_MS", "1500"}, {"COMMAND_LEASE_MS", "5500"}});
  auto http = d.replica(1).client();
  const auto category = id_of(post_json(*http, "/categories", R"({"name":"Dogs"})"));
  const auto pets = create_pets(*http, category, 3);
  std::atomic<int> failures{0};
  std::atomic<int> progress{0};
  std::thread killer([&] {
    // Kill once a third of the stream is through, whatever the build's speed.
    while (progress < 60) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    d.replica(0).kill_hard();
  });
  const auto acks = conflicting_writes(d, pets, category, 6, 30, &failures, &progress);
  killer.join();
  EXPECT_GT(failures.load(), 0) << "the kill should have cost some requests";

  // The survivor takes over the dead replica's partitions and locks; give the
  // group time to rebalance, then the read model must equal the log.
  FoldedLog log;
  for (int attempt = 0; attempt < 40; ++attempt) {
    log = fold_topics({d.categories_topic(), d.pets_topic()});
    bool converged = true;
    for (const auto& [id, pet] : log.state.pets) {
      const auto r = http->Get(("/pets/" + std::to_string(id) + "/profile").c_str());
      converged = converged && r && r->status == 200 && parse(r->body)["version"].GetInt64() == pet.version;
    }
    if (converged) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  EXPECT_TRUE(log.violations.empty()) << log.violations.front();
  for (const auto& ack : acks) {
    const auto& versions = log.versions.at(ack.pet);
    EXPECT_NE(std::find(versions.begin(), versions.end(), ack.version), versions.end());
  }
  d.replica(0).restart();
  expect_read_model_equals_fold(d, log);
}

}  // namespace
}  // namespace petstore::testing
