// Redis is a cache of the log (docs/reliability.md, "A lost read
// model"): the read models wiped under steady traffic through the
// entry point are noticed by every replica, rebuilt from the log before any
// replica serves again, and then equal a fold of the log, with no saga step
// repeated and no client answered 500 or left hanging. And a reactor that
// re-reads its input from the start repeats nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "es/key_space.h"
#include "kafka/consumer.h"
#include "kafka/group_offsets.h"
#include "kafka/producer.h"
#include "projection/applier.h"
#include "projection/runner.h"
#include "redis/connection.h"
#include "support/eventually.h"
#include "support/http_json.h"
#include "support/own_redis.h"
#include "support/service_process.h"
#include "support/stack.h"
#include "support/store_deployment.h"
#include "support/tally.h"

namespace petstore::testing {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

// --- the projection's positions, against Redis itself -----------------------

// Records that are not events take the projection's skip path, which runs
// the same position checks as an event (project.lua) and needs no read
// model's fold behind them.
class PositionsOnly final : public projection::Applier {
 public:
  explicit PositionsOnly(const es::KeySpace& space) : space_(space) {}

  std::vector<projection::Step> fold(redis::Connection& /*conn*/,
                                     const std::vector<const events::Envelope*>& events) override {
    std::vector<projection::Step> steps(events.size());
    for (auto& s : steps) {
      s.space = &space_;
    }
    return steps;
  }

 private:
  es::KeySpace space_;
};

kafka::Message not_an_event(const std::string& topic, std::int64_t offset) {
  kafka::Message m;
  m.topic = topic;
  m.offset = offset;
  m.value = "not an event";
  return m;
}

std::vector<kafka::Message> records(const std::string& topic, std::int64_t from, std::int64_t to) {
  std::vector<kafka::Message> out;
  for (auto o = from; o <= to; ++o) {
    out.push_back(not_an_event(topic, o));
  }
  return out;
}

TEST(ProjectionPositions, ALostPositionIsAGapNotAnApplyAndItTakesTheReadyMarker) {
  const auto& stack = Stack::get();
  const es::KeySpace space("heal-positions-" + events::new_event_id(), "test");
  PositionsOnly applier(space);
  redis::Endpoint endpoint;
  endpoint.host = stack.redis_host;
  endpoint.port = stack.redis_port;
  redis::Connection conn(endpoint);
  const std::string topic = "t";
  const auto position = [&] {
    const auto v = redis_command({"HGET", space.offsets(), topic + ":0"});
    return v.empty() || v[0].empty() ? std::string("none") : v[0];
  };

  projection::Applied here;
  EXPECT_TRUE(projection::apply_batch(conn, applier, records(topic, 0, 4), here).empty());
  EXPECT_EQ(position(), "4");
  EXPECT_EQ((here[{topic, 0}]), 4);
  // Delivered again (a rebalance): found applied, no gap.
  projection::Applied again{{{topic, 0}, 1}};
  EXPECT_TRUE(projection::apply_batch(conn, applier, records(topic, 2, 6), again).empty());
  EXPECT_EQ(position(), "6");

  // The read model loses its positions (a wipe): the next record is not
  // applied, the partition is reported, and the ready marker goes.
  redis_command({"SET", space.ready_marker(), "g1"});
  redis_command({"DEL", space.offsets()});
  projection::Applied stale{{{topic, 0}, 6}};
  const auto gaps = projection::apply_batch(conn, applier, records(topic, 7, 8), stale);
  ASSERT_EQ(gaps.size(), 1U);
  EXPECT_EQ(gaps.begin()->topic, topic);
  EXPECT_EQ(position(), "none");
  EXPECT_EQ((stale[{topic, 0}]), 6);  // not advanced past what was refused
  EXPECT_EQ(redis_command({"EXISTS", space.ready_marker()}), std::vector<std::string>{"0"});

  // Replayed from the beginning, as the Runner resumes a lost partition.
  projection::Applied fresh;
  EXPECT_TRUE(projection::apply_batch(conn, applier, records(topic, 0, 8), fresh).empty());
  EXPECT_EQ(position(), "8");

  // A position that went back (Redis restored from an older snapshot) is a
  // gap too.
  redis_command({"HSET", space.offsets(), topic + ":0", "3"});
  EXPECT_EQ(projection::apply_batch(conn, applier, records(topic, 9, 9), fresh).size(), 1U);
  EXPECT_EQ(position(), "3");
  redis_wipe(space.base());
}

// --- the whole store ---------------------------------------------------------

// Every answer the traffic got, and the ones no client may get.
class ReadModelHealTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { store_ = std::make_unique<StoreDeployment>(2); }
  static void TearDownTestSuite() { store_.reset(); }

  static CommandRun audit(const std::string& args) { return store_->audit(PETSTORE_AUDIT_BINARY, args); }

  static std::unique_ptr<httplib::Client> client() {
    auto c = store_->client();
    c->set_read_timeout(std::chrono::seconds(15));
    c->set_write_timeout(std::chrono::seconds(15));
    return c;
  }

  static std::vector<ServiceProcess*> replicas() {
    std::vector<ServiceProcess*> out;
    for (const auto& service : StoreDeployment::services()) {
      for (size_t i = 0; i < 2; ++i) {
        out.push_back(&store_->replica(service, i));
      }
    }
    return out;
  }

  static bool all_ready() {
    for (auto* r : replicas()) {
      const auto answer = r->client()->Get("/readyz");
      if (!answer || answer->status != 200) {
        return false;
      }
    }
    return true;
  }

  // Records of every topic of the store, as (topic, count).
  static std::map<std::string, size_t> log_sizes() {
    std::map<std::string, size_t> out;
    for (const auto* t : {"pets", "categories", "orders", "inventory"}) {
      out[t] = read_topic(store_->topic(t)).size();
    }
    return out;
  }

  // The reactor `group` of `service` ("<service>.<purpose>") has committed
  // every partition of `input` through its end.
  static bool reactor_at_end(const std::string& group, const std::string& input) {
    const auto topic = store_->topic(input);
    kafka::GroupOffsets committed(store_->brokers(), store_->prefix() + "." + group);
    kafka::Producer producer({store_->brokers(), "heal-test", 2, 5000, ""});
    const auto marks = producer.watermarks(topic, 5000);
    for (std::size_t p = 0; p < marks.size(); ++p) {
      if (marks[p].high > 0 &&
          committed.committed(topic, static_cast<std::int32_t>(p), 5000) < marks[p].high) {
        return false;
      }
    }
    return true;
  }

  // A new pet in a new category `category`, once the inventory tracks it
  // (15 s at most); 0 if it never does.
  static std::int64_t tracked_pet(httplib::Client& http, const std::string& category) {
    const auto cat = id_of(post_json(http, "/categories", R"({"name":")" + category + "\"}"));
    const auto pet =
        id_of(post_json(http, "/pets", R"({"name":"p","categoryId":)" + std::to_string(cat) + "}"));
    const bool tracked = eventually(
        [&] { return http.Get(("/store/inventory/items/" + std::to_string(pet)).c_str())->status == 200; },
        std::chrono::seconds(15));
    return tracked ? pet : 0;
  }

  static bool orders_settled(httplib::Client& http, const std::vector<std::int64_t>& orders) {
    for (const auto id : orders) {
      const auto r = http.Get(("/store/orders/" + std::to_string(id)).c_str());
      if (!r || r->status != 200 || parse(r->body)["status"].GetString() == std::string("placed")) {
        return false;
      }
    }
    return true;
  }

  static std::unique_ptr<StoreDeployment> store_;
};

std::unique_ptr<StoreDeployment> ReadModelHealTest::store_;

TEST_F(ReadModelHealTest, WipedUnderTrafficEveryReplicaRebuildsThenServesTheFoldOfTheLog) {
  auto http = client();
  const auto setup = stocked_pets(*http, "Heal", 4, 100000);
  ASSERT_TRUE(setup.stocked);
  const auto category = setup.category;
  const auto& pets = setup.pets;

  // Key management before the wipe: a key re-planned, one revoked, and
  // the registry as the admin API lists it.
  const httplib::Headers admin = {{"Authorization", std::string("Bearer ") + kAdminToken}};
  auto& entry = store_->entry();
  const auto replanned = issue_api_key(*entry.client(), R"({"plan":"free","name":"replanned"})");
  const auto revoked = issue_api_key(*entry.client(), R"({"plan":"pro","name":"revoked"})");
  const auto id_of_key = [&](const std::string& key) {
    const auto list = parse(entry.client()->Get("/admin/keys", admin)->body);
    for (const auto& k : list.GetArray()) {
      if (k["name"] == "replanned" && key == replanned) {
        return std::string(k["id"].GetString());
      }
      if (k["name"] == "revoked" && key == revoked) {
        return std::string(k["id"].GetString());
      }
    }
    return std::string();
  };
  ASSERT_EQ(entry.client()
                ->Patch(("/admin/keys/" + id_of_key(replanned)).c_str(), admin, R"({"plan":"business"})",
                        "application/json")
                ->status,
            200);
  ASSERT_EQ(entry.client()->Delete(("/admin/keys/" + id_of_key(revoked)).c_str(), admin)->status, 204);
  const auto keys_before = entry.client()->Get("/admin/keys", admin)->body;

  std::map<ServiceProcess*, size_t> rebuilt_before;
  for (auto* r : replicas()) {
    rebuilt_before[r] = count(r->log(), "read model: ready; rebuilt");
  }

  // Steady traffic on all three services: new pets, pet updates, orders
  // (each one a saga across orders and inventory), stock, and reads.
  Tally tally;
  std::atomic<bool> stop{false};
  std::mutex orders_mutex;
  std::vector<std::int64_t> orders;
  std::vector<std::thread> traffic;
  const auto drive = [&](const std::string& what, std::function<void(httplib::Client&, int)> step) {
    traffic.emplace_back([&, what, step = std::move(step)] {
      auto c = client();
      for (int i = 0; !stop; ++i) {
        step(*c, i);
      }
    });
  };
  drive("POST /pets", [&](httplib::Client& c, int i) {
    tally.record("POST /pets", post_json(c, "/pets",
                                         R"({"name":"n)" + std::to_string(i) + R"(","categoryId":)" +
                                             std::to_string(category) + "}"));
  });
  drive("PUT /pets/{id}/status", [&](httplib::Client& c, int i) {
    tally.record(
        "PUT /pets/{id}/status",
        put_json(c, "/pets/" + std::to_string(pets[static_cast<size_t>(i) % pets.size()]) + "/status",
                 i % 2 == 0 ? R"({"status":"pending"})" : R"({"status":"available"})"));
  });
  drive("POST /store/orders", [&](httplib::Client& c, int i) {
    const auto r = post_json(
        c, "/store/orders",
        R"({"petId":)" + std::to_string(pets[static_cast<size_t>(i) % pets.size()]) + R"(,"quantity":1})");
    tally.record("POST /store/orders", r);
    if (r && (r->status == 201 || r->status == 202)) {
      std::lock_guard lock(orders_mutex);
      orders.push_back(id_of(r));
    }
  });
  drive("PUT /store/inventory/items/{id}", [&](httplib::Client& c, int i) {
    tally.record(
        "PUT /store/inventory/items/{id}",
        put_json(c, "/store/inventory/items/" + std::to_string(pets[static_cast<size_t>(i) % pets.size()]),
                 R"({"quantity":)" + std::to_string(100000 + i) + "}"));
  });
  drive("GET /pets/{id}", [&](httplib::Client& c, int i) {
    tally.record("GET /pets/{id}",
                 c.Get(("/pets/" + std::to_string(pets[static_cast<size_t>(i) % pets.size()])).c_str()));
  });
  std::this_thread::sleep_for(std::chrono::seconds(2));

  // Everything the deployment keeps in Redis goes at once, as with
  // FLUSHALL: every read model, the key registry, the limiter's counters,
  // idempotency records and id leases (which their holders take again).
  redis_wipe(store_->prefix() + ":");

  // Every replica notices, rebuilds, and says so.
  const bool healed = eventually(
      [&] {
        for (auto* r : replicas()) {
          if (count(r->log(), "read model: ready; rebuilt") <= rebuilt_before[r]) {
            return false;
          }
        }
        return all_ready();
      },
      std::chrono::seconds(60));
  std::this_thread::sleep_for(std::chrono::seconds(2));  // traffic on the healed store
  stop = true;
  for (auto& t : traffic) {
    t.join();
  }
  for (auto* r : replicas()) {
    ASSERT_TRUE(healed) << "replica on port " << r->port() << " did not rebuild:\n" << r->log_tail();
  }
  for (const auto& [answer, n] : tally.answers) {
    std::printf("  %6d x %s\n", n, answer.c_str());
  }
  EXPECT_TRUE(tally.failures.empty())
      << tally.failures.size() << " failures, first: " << tally.failures.front();
  EXPECT_GT(tally.answers["201"], 0);
  // The rebuild was seen, and nothing was answered from the partial read
  // model: every pet and the category exist, so a 404 or a 422 could only
  // come from a read model missing them (before the gate looked again
  // after the handler, 7 reads answered 404 and 5 creates 422).
  EXPECT_GT(tally.answers["503 read_model_rebuilding"], 0);
  EXPECT_EQ(tally.answers["404 pet_not_found"], 0);
  EXPECT_EQ(tally.answers["422 unknown_category"], 0);

  // Every order the clients placed gets its outcome, then the state equals a
  // fold of the log and the log shows no saga step twice.
  // The saga settles after the clients' answers (the inventory mirrors new
  // pets and answers orders; the orders record the answers): wait until the
  // log has stopped growing, so that it is not folded while it grows.
  ASSERT_TRUE(eventually([&] { return orders_settled(*http, orders); }, std::chrono::seconds(30)));
  auto sizes = log_sizes();
  ASSERT_TRUE(eventually(
      [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        auto now = log_sizes();
        return std::exchange(sizes, now) == now;
      },
      std::chrono::seconds(60)));
  // The key registry is a fold of the keys topic: every key back with its
  // plan and revocation, the traffic's key never refused (the tally), the
  // re-planned key on its new plan and the revoked one still refused.
  EXPECT_EQ(entry.client()->Get("/admin/keys", admin)->body, keys_before);
  httplib::Client plain("127.0.0.1", entry.port());
  const auto r = plain.Get("/categories", {{"X-API-Key", replanned}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("X-RateLimit-Limit"), "1000");  // business: 1,000 a minute
  EXPECT_EQ(error_code(plain.Get("/categories", {{"X-API-Key", revoked}})), "api_key_revoked");

  const auto rebuild = audit("rebuild");
  EXPECT_EQ(rebuild.status, 0) << rebuild.out;
  EXPECT_NE(rebuild.out.find("\n0 differences\n"), std::string::npos) << rebuild.out;
  const auto verify = audit("verify --max-pending-age 60");
  EXPECT_EQ(verify.status, 0) << verify.out;
}

// Redis restored from an older snapshot while the pets replicas were down:
// the ready marker is in the snapshot, but a replica that starts serves
// nothing until the read model holds what the log held when it started.
TEST_F(ReadModelHealTest, AReplicaStartingOnAnOlderSnapshotCatchesUpBeforeItServes) {
  auto http = client();
  const auto category = id_of(post_json(*http, "/categories", R"({"name":"Old"})"));
  const auto pet =
      id_of(post_json(*http, "/pets", R"({"name":"o","categoryId":)" + std::to_string(category) + "}"));
  const auto pets_keys = store_->prefix() + ":{pets}:";
  std::map<std::string, std::string> snapshot;
  for (const auto& key : redis_command({"KEYS", pets_keys + "*"})) {
    if (key.find(":lock:") == std::string::npos && key.find(":idem:") == std::string::npos) {
      snapshot[key] = redis_command({"DUMP", key}).at(0);
    }
  }
  constexpr int kUpdates = 200;
  for (int i = 0; i < kUpdates; ++i) {
    ASSERT_EQ(put_json(*http, "/pets/" + std::to_string(pet) + "/status",
                       i % 2 == 0 ? R"({"status":"pending"})" : R"({"status":"available"})")
                  ->status,
              200);
  }

  for (size_t i = 0; i < 2; ++i) {
    store_->replica("pets", i).stop();
  }
  redis_wipe(pets_keys);
  for (const auto& [key, dump] : snapshot) {
    redis_command({"RESTORE", key, "0", dump});
  }
  ASSERT_EQ(redis_command({"EXISTS", pets_keys + "proj:ready"}), std::vector<std::string>{"1"});
  const auto logged = store_->replica("pets", 0).log().size();
  const auto records = read_topic(store_->topic("pets")).size() +
                       read_topic(store_->topic("categories")).size() +
                       read_topic(store_->topic("apikeys")).size();
  for (size_t i = 0; i < 2; ++i) {
    store_->replica("pets", i).restart();  // returns once /readyz is 200
  }
  // It waited for the whole log of the pets service's topics and the keys
  // topic, whatever the marker said (the join alone may take long enough
  // for the projection to catch up, so the answer below does not show this
  // by itself). The writers' claims as the replicas start may add a few
  // records to the log it waited for.
  const auto since_restart = store_->replica("pets", 0).log().substr(logged);
  const std::string ready_line = "read model: ready; caught up with ";
  const auto at = since_restart.find(ready_line);
  ASSERT_NE(at, std::string::npos) << since_restart;
  std::size_t caught_up = 0;
  std::size_t of = 0;
  std::string word;
  std::istringstream counts(since_restart.substr(at + ready_line.size()));
  ASSERT_TRUE(counts >> caught_up >> word >> of) << since_restart;
  ASSERT_EQ(word, "of") << since_restart;
  EXPECT_EQ(caught_up, of);
  EXPECT_GE(caught_up, records) << since_restart;
  const auto r =
      store_->replica("pets", 0).client()->Get(("/pets/" + std::to_string(pet) + "/profile").c_str());
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(parse(r->body)["version"].GetInt64(), 1 + kUpdates) << r->body;
}

// The inventory refuses an order for an unknown pet once its pets reaction
// has handled every pet event so far: it waits on the reaction's committed
// offsets in Kafka. Positions once kept in Redis made a wipe, with the pets
// topic quiet, stall that wait for good, and every order on the reactor's
// partitions behind it stayed placed.
TEST_F(ReadModelHealTest, AfterAWipeAnOrderForAnUnknownPetIsStillRefusedPromptly) {
  auto http = client();
  ASSERT_GT(tracked_pet(*http, "Quiet"), 0);

  redis_wipe(store_->prefix() + ":");  // the pets topic stays quiet from here on
  // Every replica notices the wipe within its readiness check, rebuilds,
  // and serves again.
  std::this_thread::sleep_for(std::chrono::seconds(1));
  ASSERT_TRUE(eventually([&] { return all_ready(); }, std::chrono::seconds(60)));
  const auto started = std::chrono::steady_clock::now();
  const auto unknown =
      post_retrying(*http, "/store/orders", R"({"petId":987654321,"quantity":1})", unique_name("unknown"));
  ASSERT_TRUE(unknown);
  ASSERT_TRUE(unknown->has_header("Location")) << unknown->status << " " << unknown->body;
  const auto path = unknown->get_header_value("Location");
  std::string status;
  ASSERT_TRUE(eventually(
      [&] {
        const auto r = http->Get(path.c_str());
        status = r && r->status == 200 ? parse(r->body)["status"].GetString() : "";
        return status == "rejected";
      },
      std::chrono::seconds(15)))
      << "the order is " << status;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(15));
  EXPECT_STREQ(parse(http->Get(path.c_str())->body)["rejection"].GetString(), "unknown_pet");
}

TEST_F(ReadModelHealTest, ReactorsReadingTheirInputAgainFromTheStartRepeatNoSagaStep) {
  auto http = client();
  const auto pet = tracked_pet(*http, "Again");
  ASSERT_GT(pet, 0);
  ASSERT_EQ(put_json(*http, "/store/inventory/items/" + std::to_string(pet), R"({"quantity":5})")->status,
            200);
  std::vector<std::int64_t> orders;
  orders.reserve(3);
  for (int i = 0; i < 3; ++i) {
    orders.push_back(
        id_of(post_json(*http, "/store/orders", R"({"petId":)" + std::to_string(pet) + R"(,"quantity":1})")));
  }
  ASSERT_TRUE(eventually([&] { return orders_settled(*http, orders); }, std::chrono::seconds(30)));
  ASSERT_EQ(post_json(*http, "/store/orders/" + std::to_string(orders[0]) + "/complete", "")->status, 200);
  ASSERT_EQ(post_json(*http, "/store/orders/" + std::to_string(orders[1]) + "/cancel", "")->status, 200);
  ASSERT_TRUE(eventually(
      [&] {
        const auto r = http->Get(("/store/inventory/items/" + std::to_string(pet)).c_str());
        return r->status == 200 && parse(r->body)["reserved"].GetInt64() == 1;
      },
      std::chrono::seconds(15)));
  const auto before = log_sizes();

  // The reactors forget where they were: every replica of orders and
  // inventory starts again with no recorded position, so each reactor reads
  // its whole input from offset 0 and decides every event again.
  for (const auto* service : {"orders", "inventory"}) {
    for (size_t i = 0; i < 2; ++i) {
      store_->replica(service, i).stop();
    }
  }
  for (const auto* group : {"orders.outcome-reactor", "inventory.pets-reactor", "inventory.orders-reactor"}) {
    delete_group(store_->brokers(), store_->prefix() + "." + group);
  }
  // All four at once: each waits for its groups to settle, which they do
  // together.
  std::vector<std::thread> starting;
  for (const auto* service : {"orders", "inventory"}) {
    for (size_t i = 0; i < 2; ++i) {
      starting.emplace_back([&replica = store_->replica(service, i)] {
        try {
          replica.restart();
        } catch (const std::exception& e) {
          ADD_FAILURE() << e.what();
        }
      });
    }
  }
  for (auto& t : starting) {
    t.join();
  }
  // Re-read: every reactor's position is back at the end of its input.
  ASSERT_TRUE(eventually(
      [&] {
        return reactor_at_end("inventory.pets-reactor", "pets") &&
               reactor_at_end("inventory.orders-reactor", "orders") &&
               reactor_at_end("orders.outcome-reactor", "inventory");
      },
      std::chrono::seconds(60)));
  EXPECT_EQ(log_sizes(), before) << "a reactor appended again what it had decided before";
  const auto verify = audit("verify");
  EXPECT_EQ(verify.status, 0) << verify.out;
}

// The readiness look after a handler turns an answer that may rest on a
// partial read model into 503 read_model_rebuilding, "nothing was
// written". An order the saga refused is written (placed, then rejected),
// and its 409 must stand: here the orders' marker goes (a gap the
// projection found, as under memory pressure) while the order waits for
// the inventory, and Redis, at its memory limit, keeps it from coming back.
TEST(ReadModelMarker, ARefusedOrderAnsweredAfterTheMarkerWentKeepsIts409) {
  OwnRedis redis;
  StoreDeployment store(1, {{"REDIS_PORT", std::to_string(redis.port())},
                            {"RATE_LIMIT", "off"},
                            {"ORDER_OUTCOME_WAIT_MS", "30000"}});
  auto http = store.client();
  http->set_read_timeout(std::chrono::seconds(40));
  const auto category = post_retrying(*http, "/categories", R"({"name":"Marker"})", unique_name("c"));
  ASSERT_TRUE(category && category->status == 201);
  const auto pet =
      post_retrying(*http, "/pets", R"({"name":"Rex","categoryId":)" + std::to_string(id_of(category)) + "}",
                    unique_name("p"));
  ASSERT_TRUE(pet && pet->status == 201);
  ASSERT_TRUE(stock_when_tracked(*http, id_of(pet), 0));  // no stock: the order is refused

  auto& inventory = store.replica("inventory", 0);
  ASSERT_EQ(::kill(inventory.pid(), SIGSTOP), 0);
  int status = 0;
  std::string body;
  bool located = false;
  std::thread placing([&] {
    const auto r =
        post_json(*http, "/store/orders", R"({"petId":)" + std::to_string(id_of(pet)) + R"(,"quantity":1})");
    if (r) {
      status = r->status;
      body = r->body;
      located = r->has_header("Location");
    }
  });
  const auto in_log = [&] {
    for (const auto& m : read_topic(store.topic("orders"))) {
      if (const auto* t = m.header("ce_type"); t != nullptr && *t == "io.petstore.order.placed") {
        return true;
      }
    }
    return false;
  };
  const bool waiting = eventually(in_log, std::chrono::seconds(20));
  auto admin = redis.connect();
  ASSERT_FALSE(redis::is_error(*admin.command({"CONFIG", "SET", "maxmemory-policy", "noeviction"})));
  ASSERT_FALSE(redis::is_error(*admin.command({"CONFIG", "SET", "maxmemory", "1"})));
  ASSERT_FALSE(
      redis::is_error(*admin.command({"DEL", es::KeySpace(store.prefix(), "orders").ready_marker()})));
  const bool noticed = eventually(
      [&] {
        const auto r = store.replica("orders", 0).client()->Get("/readyz");
        return r && r->status == 503;
      },
      std::chrono::seconds(10));
  ::kill(inventory.pid(), SIGCONT);
  placing.join();
  ASSERT_FALSE(redis::is_error(*admin.command({"CONFIG", "SET", "maxmemory", "0"})));
  ASSERT_TRUE(waiting) << "the order was never placed";
  ASSERT_TRUE(noticed) << "the orders replica never noticed the marker gone";
  EXPECT_EQ(status, 409) << "an order placed and refused was answered " << body;
  EXPECT_TRUE(located);
}

}  // namespace
}  // namespace petstore::testing
