// Two or more pets replicas sharing one broker and Redis, receiving
// conflicting commands at the same moment (docs/consistency.md).
#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <map>
#include <mutex>
#include <numeric>
#include <random>
#include <thread>

#include "http/forwarder.h"
#include "support/eventually.h"
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

// The set-up's creates, as a client would make them: a 503 with Retry-After
// (the group still sharing the partitions out, or the broker slow on a busy
// machine) is asked again with the same Idempotency-Key.
std::int64_t create(httplib::Client& http, const std::string& path, const std::string& body) {
  return id_of(post_retrying(http, path, body, unique_name("setup"), 10));
}

std::vector<std::int64_t> create_pets(httplib::Client& http, std::int64_t category, int n) {
  std::vector<std::int64_t> pets;
  pets.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    pets.push_back(create(http, "/pets", R"({"name":"p","categoryId":)" + std::to_string(category) + "}"));
  }
  return pets;
}

class PetsConsistency : public ::testing::Test {};

TEST_F(PetsConsistency, ConflictingUpdatesOnTwoReplicasKeepEveryHistoryValid) {
  PetsDeployment d(2);
  auto http = d.replica(0).client();
  const auto category = create(*http, "/categories", R"({"name":"Dogs"})");
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
  const auto category = std::to_string(create(*a, "/categories", R"({"name":"Dogs"})"));
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

TEST_F(PetsConsistency, AReplicaKilledMidStreamLeavesTheLogValidAndTheReadModelConverges) {
  PetsDeployment d(2, {{"KAFKA_DELIVERY_TIMEOUT_MS", "1500"}, {"COMMAND_LEASE_MS", "5500"}});
  auto http = d.replica(1).client();
  const auto category = create(*http, "/categories", R"({"name":"Dogs"})");
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

// An owner paused (SIGSTOP) past the group's session timeout loses its
// partitions; the other replica claims them and goes on. When the paused
// one resumes, a command it had already been sent either finds its
// partition gone (and is forwarded) or appends in its old epoch, which the
// newer claim fences: 503 writer_fenced, and the record counts for no
// reader. The commands the other replica forwarded to it while it slept
// wait in its sockets; their forwarder answered 503 long ago, so they are
// refused unrun (http::Forwarder::kDeadlineHeader). Either way the log
// keeps one event per version, and every answer tells the truth about it.
TEST_F(PetsConsistency, AnOwnerPausedPastItsSessionIsFencedOrForwardedWhenItResumes) {
  PetsDeployment d(2);
  // Made as a client would, retrying a 503: the writers' group may still
  // move a partition between the replicas just after both are ready.
  const auto category =
      id_of(post_retrying(*d.replica(1).client(), "/categories", R"({"name":"Dogs"})", unique_name("dogs")));
  const auto pet =
      id_of(post_retrying(*d.replica(0).client(), "/pets",
                          R"({"name":"p","categoryId":)" + std::to_string(category) + "}", unique_name("p")));
  // The pet's owner is paused ("a"), the other replica ("b") writes. A
  // create goes to a partition its replica owns, but the group may still
  // move partitions after both are ready: the owner is the one the owners'
  // hints name once the group has settled.
  std::string partition;
  for (const auto& m : read_topic(d.pets_topic())) {
    partition = m.key == std::to_string(pet) ? std::to_string(m.partition) : partition;
  }
  ASSERT_FALSE(partition.empty());
  size_t owner = d.size();
  ASSERT_TRUE(eventually([&] {
    for (size_t i = 0; i < d.size(); ++i) {
      d.replica(i).wait_ready();
    }
    const auto hint = redis_command({"HGET", d.redis_key_base() + "owners:" + d.pets_topic(), partition});
    for (size_t i = 0; i < d.size() && !hint.empty(); ++i) {
      owner = hint.front().ends_with(":" + std::to_string(d.replica(i).port())) ? i : owner;
    }
    return owner < d.size();
  })) << "no owner's hint for the pet's partition";
  auto& paused_replica = d.replica(owner);
  auto b = d.replica(1 - owner).client();

  const auto pet_path = "/pets/" + std::to_string(pet);
  // Each command names the pet differently, so the log tells which landed.
  const auto rename = [&](httplib::Client& c, const std::string& name) {
    return put_json(c, pet_path,
                    R"({"name":")" + name + R"(","categoryId":)" + std::to_string(category) + "}");
  };

  kill(paused_replica.pid(), SIGSTOP);
  int paused_status = 0;
  std::string paused_body;
  std::thread paused([&] {
    auto c = paused_replica.client();
    c->set_read_timeout(60, 0);
    const auto r = rename(*c, "paused");
    paused_status = r ? r->status : -1;
    paused_body = r ? r->body : "";
  });
  // b takes a's partitions over once a's session (6 s) has run out; until
  // then b's commands on them find no owner to forward to.
  // A short wait: b's forward to the stopped owner hangs until its own
  // timeout; the next attempt goes on meanwhile. So b's client gives up on
  // some commands that b, or a once it resumes, may still run: those may
  // land or not. A 200 must be in the log, a 503 must not.
  b->set_read_timeout(2, 0);
  std::vector<std::string> acked;
  std::vector<std::string> refused;
  std::vector<std::string> unanswered;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(40);
  while (acked.size() < 2 && std::chrono::steady_clock::now() < give_up) {
    const auto name = "b" + std::to_string(acked.size() + refused.size() + unanswered.size());
    const auto r = rename(*b, name);
    if (r && r->status == 200) {
      acked.push_back(name);
      continue;
    }
    // (No ASSERT before the paused replica resumes and its client returns.)
    // No answer, or outcome_unknown: in the log or not, as the answer says.
    if (r && !(r->status == 503 && error_code(r) == "outcome_unknown")) {
      EXPECT_TRUE(r->status == 503 && !r->get_header_value("Retry-After").empty()) << r->body;
      refused.push_back(name);
    } else {
      unanswered.push_back(name);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  kill(paused_replica.pid(), SIGCONT);
  paused.join();
  ASSERT_EQ(acked.size(), 2U) << "b never took the paused owner's partition over";
  EXPECT_GT(refused.size() + unanswered.size(), 0U) << "b wrote on a's partition while a still held it";
  // Whatever a still had queued from b runs now or is refused; wait out the
  // forwards' own timeout before reading the log.
  paused_replica.wait_ready();
  std::this_thread::sleep_for(std::chrono::seconds(3));

  const auto log = fold_topics({d.categories_topic(), d.pets_topic()});
  EXPECT_TRUE(log.violations.empty()) << log.violations.front();
  std::map<std::string, int> landed;  // name -> records that count
  for (const auto& m : read_topic(d.pets_topic())) {
    if (m.key == std::to_string(pet)) {
      const auto value = parse(m.value);
      ++landed[value["name"].GetString()];
    }
  }
  for (const auto& [name, times] : landed) {
    EXPECT_EQ(times, 1) << name << " is in the log " << times << " times";
  }
  for (const auto& name : acked) {
    EXPECT_TRUE(landed.contains(name)) << name << " was answered 200 but is not in the log";
  }
  for (const auto& name : refused) {
    EXPECT_FALSE(landed.contains(name)) << name << " was answered 503 but is in the log";
  }
  if (paused_status == 200) {
    EXPECT_TRUE(landed.contains("paused")) << "forwarded to b and answered 200";
  } else {
    EXPECT_EQ(paused_status, 503) << paused_body;
    if (paused_body.find("outcome_unknown") == std::string::npos) {
      EXPECT_FALSE(landed.contains("paused")) << paused_body;
    }
  }
  // One version per command that landed, the create ("p") included.
  std::vector<std::int64_t> expected(landed.size());
  std::iota(expected.begin(), expected.end(), 1);
  EXPECT_EQ(log.versions.at(pet), expected);
  std::printf("paused owner's command: %d %s; b: %zu acked, %zu refused, %zu unanswered; %zu landed\n",
              paused_status, paused_body.c_str(), acked.size(), refused.size(), unanswered.size(),
              landed.size());
  expect_read_model_equals_fold(d, log);

  // A forward that reaches its owner after the forwarder's deadline is not
  // run, whoever owns the pet now.
  for (size_t i = 0; i < d.size(); ++i) {
    const auto late = d.replica(i).client()->Put(
        pet_path.c_str(),
        {{http::Forwarder::kForwardedHeader, "http://peer"}, {http::Forwarder::kDeadlineHeader, "1"}},
        R"({"name":"late","categoryId":)" + std::to_string(category) + "}", "application/json");
    ASSERT_TRUE(late);
    EXPECT_EQ(late->status, 503) << late->body;
    EXPECT_NE(late->body.find("writer_moving"), std::string::npos) << late->body;
  }
  EXPECT_EQ(fold_topics({d.pets_topic()}).versions.at(pet), expected) << "a late forward was run";
}

}  // namespace
}  // namespace petstore::testing
