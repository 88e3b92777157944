// Broker and Redis trouble, for real: the suite's three-node Kafka cluster
// loses its nodes (SIGKILL) and gets them back on their data, and Redis is
// paused (CLIENT PAUSE). Clients get 503 with Retry-After and a clear code,
// and a refused write leaves no trace in the log or the read model.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>
#include <vector>

#include "support/eventually.h"
#include "support/http_json.h"
#include "support/service_process.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

class PetsFaults : public ::testing::Test {
 protected:
  // Default Kafka timeouts (a leader move or a retried produce must succeed
  // well within them); a short Redis timeout so a stall is seen quickly. The
  // rate limiter is off: a stalled Redis would stop requests at the gate
  // (ratelimit_outage_test covers that), and these tests are about what lies
  // behind it.
  static void SetUpTestSuite() {
    cluster_heal();
    deployment_ = std::make_unique<PetsDeployment>(
        1, std::map<std::string, std::string>{{"REDIS_TIMEOUT_MS", "300"},
                                              {"RATE_LIMIT", "off"},
                                              {"KAFKA_BROKERS", Stack::get().cluster_brokers}});
  }
  static void TearDownTestSuite() { deployment_.reset(); }
  void SetUp() override {
    cluster_heal();
    // Ready again after the test before: a broker outage takes the writers'
    // groups some seconds to settle (503 writer_moving meanwhile, which is
    // what a client sees, and why the replica is not ready).
    deployment_->replica(0).wait_ready();
    http_ = deployment_->replica(0).client();
    category_ = id_of(post_json(*http_, "/categories", R"({"name":"Dogs"})"));
  }
  std::string pet_body(const std::string& name) const {
    return R"({"name":")" + name + R"(","categoryId":)" + std::to_string(category_) + "}";
  }
  httplib::Result create(const std::string& name) { return post_json(*http_, "/pets", pet_body(name)); }
  // A test's starting pet, made as a client would: a writers' group can move
  // partitions again after the replica turned ready (right after the
  // long-outage test, "replica0 does not own ...pets/2"), and 503
  // writer_moving says to retry.
  httplib::Result create_settled(const std::string& name) {
    const auto key = unique_name(name);
    auto r = post_json(*http_, "/pets", pet_body(name), {{"Idempotency-Key", key}});
    for (int attempt = 1; attempt < 20 && r && r->status == 503 && error_code(r) == "writer_moving";
         ++attempt) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      r = post_json(*http_, "/pets", pet_body(name), {{"Idempotency-Key", key}});
    }
    return r;
  }
  bool listed(const std::string& name) {
    return http_->Get(("/pets?limit=100&categoryId=" + std::to_string(category_)).c_str())->body.find(name) !=
           std::string::npos;
  }

  static std::unique_ptr<PetsDeployment> deployment_;
  std::unique_ptr<httplib::Client> http_;
  std::int64_t category_ = 0;
};

std::unique_ptr<PetsDeployment> PetsFaults::deployment_;

// The whole cluster down (every node killed), then back on its data.
void cluster_down() {
  for (int node = 1; node <= 3; ++node) {
    cluster_node_kill(node);
  }
}
void cluster_up() {
  cluster_nodes_start({1, 2, 3});
}

TEST_F(PetsFaults, BrokerDownMeans503ForWritesWhileReadsGoOn) {
  // Its own deployment, with a short delivery timeout so the refusal is quick.
  PetsDeployment d(1, {{"KAFKA_DELIVERY_TIMEOUT_MS", "1500"},
                       {"COMMAND_LEASE_MS", "5500"},
                       {"KAFKA_BROKERS", Stack::get().cluster_brokers}});
  auto http = d.replica(0).client();
  const auto category = std::to_string(id_of(post_json(*http, "/categories", R"({"name":"Dogs"})")));
  const auto create = [&](const std::string& name) {
    return post_json(*http, "/pets", R"({"name":")" + name + R"(","categoryId":)" + category + "}");
  };
  const auto existing = id_of(create("before"));
  // Down before the write is sent: nothing can reach a broker, so the
  // write is certainly not in the log.
  cluster_down();
  const auto name = unique_name("lost");
  const auto r = create(name);
  cluster_up();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503) << r->body;
  EXPECT_EQ(error_code(r), "broker_unavailable");
  EXPECT_EQ(r->get_header_value("Retry-After"), "1");

  EXPECT_EQ(http->Get(("/pets/" + std::to_string(existing) + "/profile").c_str())->status, 200);
  EXPECT_EQ(http->Get(("/pets?limit=100&categoryId=" + category).c_str())->body.find(name),
            std::string::npos);

  // Once the brokers are back, writes succeed again and the refused one
  // never shows up.
  httplib::Result again = create("after");
  for (int i = 0; i < 50 && (!again || again->status != 201); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    again = create("after");
  }
  EXPECT_EQ(again->status, 201);
  read_topic(Stack::get().cluster_brokers, d.pets_topic(), [&](const rd_kafka_message_t& m) {
    EXPECT_EQ(std::string_view(static_cast<const char*>(m.payload), m.len).find(name), std::string::npos)
        << "a refused write reached the log";
  });
}

// Leaders moving under writes: the node leading most of the pets
// partitions is killed while creates go on, and started again. A produce or
// read-back can meet a partition without a leader until the cluster fences
// the node, and the owner may give up its epoch and claim again (503
// writer_moving or broker_unavailable, with Retry-After, meanwhile); the
// idempotent producer retries what it had in flight on the new leader. A
// client that retries with its Idempotency-Key gets every pet created, each
// once in the log.
TEST_F(PetsFaults, APartitionLeaderKilledUnderWritesLosesAndDuplicatesNothing) {
  std::map<int, int> led;
  for (int p = 0; p < 6; ++p) {
    ++led[cluster_leader(deployment_->pets_topic(), p)];
  }
  const int victim = std::max_element(led.begin(), led.end(), [](const auto& a, const auto& b) {
                       return a.second < b.second;
                     })->first;
  std::atomic<int> sent{0};
  std::thread killer([&] {
    while (sent < 5) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    cluster_node_kill(victim);
    std::this_thread::sleep_for(std::chrono::seconds(4));
    cluster_node_start(victim);
  });
  std::vector<std::int64_t> created;
  for (int i = 0; i < 40; ++i) {
    const auto r =
        post_retrying(*http_, "/pets", pet_body("moving" + std::to_string(i)), unique_name("moving"));
    ++sent;
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 201) << r->body;
    if (r->status == 201) {
      created.push_back(id_of(r));
    }
  }
  killer.join();
  EXPECT_EQ(created.size(), 40U);
  std::map<std::string, int> copies;
  for (const auto& m : read_topic(Stack::get().cluster_brokers, deployment_->pets_topic())) {
    ++copies[m.key];
  }
  for (const auto id : created) {
    EXPECT_EQ(copies[std::to_string(id)], 1) << "pet " << id << ": created once, whatever the retries";
  }
}

// A broker outage long enough for librdkafka's reconnect backoff to grow
// (it doubles from 100 ms, up to 10 s unless told otherwise): once the
// brokers are back, no write is answered "the event log did not confirm the
// write in time". The writers' groups may still be settling (503
// writer_moving, retried as a client would). A client that still waits
// out its reconnect backoff answers 503 broker_unavailable
// (kafka::make_client_conf keeps that backoff short).
TEST_F(PetsFaults, WritesAreConfirmedOnceTheBrokersAreBackFromALongOutage) {
  ASSERT_EQ(create_settled("before-outage")->status, 201);
  cluster_down();
  std::this_thread::sleep_for(std::chrono::milliseconds(5000));
  cluster_up();
  deployment_->replica(0).wait_ready();
  for (int i = 0; i < 24; ++i) {
    const auto r = create_settled("after-outage" + std::to_string(i));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 201) << r->body;
  }
}

// A stalled Redis stalls no request: a read answers 503 within the
// deadline, and a create, decided from the log alone (its category's
// writer admits it), is either in the log and answered 201, readable once
// Redis is back, or answered 503 and nowhere.
TEST_F(PetsFaults, StalledRedisMeans503ForReadsAndNoHalfWrite) {
  const auto existing = id_of(create_settled("before-pause"));
  std::thread pauser([] { redis_command({"CLIENT", "PAUSE", "2000", "ALL"}); });
  pauser.join();
  const auto started = std::chrono::steady_clock::now();
  const auto read = http_->Get(("/pets/" + std::to_string(existing) + "/profile").c_str());
  const auto took = std::chrono::steady_clock::now() - started;
  const auto name = unique_name("paused");
  const auto write = create(name);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->status, 503);
  EXPECT_EQ(error_code(read), "store_unavailable");
  EXPECT_EQ(read->get_header_value("Retry-After"), "1");
  EXPECT_LT(took, std::chrono::milliseconds(1500)) << "a stalled Redis must not stall requests";
  ASSERT_TRUE(write);
  ASSERT_TRUE(write->status == 201 || write->status == 503) << write->status << " " << write->body;

  std::this_thread::sleep_for(std::chrono::milliseconds(2200));
  EXPECT_EQ(http_->Get(("/pets/" + std::to_string(existing) + "/profile").c_str())->status, 200);
  std::size_t in_log = 0;
  for (const auto& m : read_topic(Stack::get().cluster_brokers, deployment_->pets_topic())) {
    in_log += m.value.find(name) != std::string::npos ? 1U : 0U;
  }
  if (write->status == 201) {
    EXPECT_EQ(in_log, 1U) << "a 201 write is not in the log once";
    EXPECT_TRUE(eventually([&] { return listed(name); })) << "the projection did not heal the read model";
  } else {
    EXPECT_EQ(in_log, 0U) << "a refused write reached the log";
    EXPECT_FALSE(listed(name));
  }
}

}  // namespace
}  // namespace petstore::testing
