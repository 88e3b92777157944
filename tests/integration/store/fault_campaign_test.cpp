// Writes and orders on all three services, through the entry point, with two
// replicas of each, on the suite's three-node Kafka cluster, while faults
// overlap: a pets writer paused (SIGSTOP) past twice its group session with
// commands waiting in its socket, while Redis is paused (CLIENT PAUSE) and
// the leader broker of the busiest pets partition is killed and started
// again (until the broker refuses one of the writer's appends, three tries); Redis wiped
// while a replica of each service is killed (SIGKILL) and a broker too; the
// leader of the busiest inventory partitions killed while a broker is
// paused and an orders and an inventory replica are paused past their
// session; the links between an orders replica and every broker delayed,
// then stalled past its session, then cut (through proxies:
// support/link_proxy.h); Redis at its memory limit (volatile-lru, as
// deployed); Redis killed and started again on its append-only file. The
// store has a Redis of its own (support/own_redis.h). The traffic, every
// write kind keyed and keyless: creates with and without Idempotency-Key;
// status changes with and without If-Match; pets of a client's own,
// changed with If-Match and deleted; orders with and without keys,
// cancelled or completed; orders for pets that do not exist; stock set
// near zero; categories deleted while pets are created in them.
//
// The checks read the log as a read_committed consumer reads it and know
// only docs/events.md: nothing of shared/es, nor any service's fold.
//   - every acknowledged write is in the log as that event: its type and
//     data at its aggregate's version, and a change answered as already
//     made (a status or stock PUT) has the state it was answered at that
//     version;
//   - every 5xx write (a keyless pet or order: each attempt names itself)
//     is absent from the log, unless it was answered outcome_unknown;
//   - a 4xx is one the log explains: a client alone on its pet is never
//     told 412 or 404, an order it saw reserved is never refused
//     completion;
//   - a cancelled order's reservation is released, a completed one's
//     consumed, a rejected order holds none, and every pet created is
//     tracked by the inventory (and petstore-audit verify agrees);
//   - no pet lives in a deleted category;
//   - each aggregate's versions are 1..n, none twice;
//   - no stock is oversold: a ledger's units never go below zero;
//   - every order placed resolves, reserved or rejected (nothing else moves
//     a placed order), within 60 s of the end of the traffic, its outcome
//     its second event;
//   - the read model equals a rebuild from the log (petstore-audit
//     rebuild), and every replica answers each aggregate at the log's
//     version;
//   - the paused writer attempted appends after it resumed, and the broker
//     refused at least one of them (otherwise the run shows nothing);
//   - every client error was a 503, never a hang or a 500.
#include <gtest/gtest.h>

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "config/env.h"
#include "events/envelope.h"
#include "kafka/consumer.h"
#include "kafka/group_offsets.h"
#include "kafka/producer.h"
#include "support/eventually.h"
#include "support/http_json.h"
#include "support/link_proxy.h"
#include "support/own_redis.h"
#include "support/service_process.h"
#include "support/stack.h"
#include "support/store_deployment.h"
#include "support/tally.h"

namespace petstore::testing {
namespace {

// What librdkafka 2.0.2 logs as it aborts the process on its transaction
// state assertion (docs/reliability.md, "librdkafka's faults").
constexpr const char* kLibrdkafkaTxnAssertion = "BUG: Invalid transaction state transition";

// One event as docs/events.md describes it: the record's key, its
// ce_type and ce_sequence headers, and its data.
struct LogEvent {
  std::string type;
  std::int64_t version = 0;
  std::string data;
};

// A write a client was told succeeded, and the event the log must hold for
// it: `type` at `version` of `aggregate` (any version: 0), its data holding
// `data`; and `state`, when set, what the aggregate's events up to that
// version must fold to (empty: they do; else what they fold to instead).
struct Acknowledged {
  std::string topic;  // pets, categories, orders, inventory
  std::string aggregate;
  std::int64_t version = 0;
  std::string type;
  std::string data;
  std::string what;
  std::string kind;  // the kind of write, for the closing counts
  std::function<std::string(const std::vector<LogEvent>&)> state;
};

std::int64_t etag_version(const httplib::Result& r) {
  const auto etag = r->get_header_value("ETag");
  return etag.size() > 2 ? std::stoll(etag.substr(1, etag.size() - 2)) : 0;
}

std::string last_segment(const std::string& location) {
  return location.substr(location.rfind('/') + 1);
}

using LogTopic = std::map<std::string, std::vector<LogEvent>>;  // aggregate -> its events, log order

LogTopic read_events_of(const std::string& brokers, const std::string& topic) {
  LogTopic out;
  for (const auto& m : read_topic(brokers, topic)) {
    const auto* type = m.header("ce_type");
    const auto* sequence = m.header("ce_sequence");
    out[m.key].push_back(
        {type != nullptr ? *type : "", sequence != nullptr ? std::stoll(*sequence) : 0, m.value});
  }
  return out;
}

// A pet's status after its event at `version`, folded from the events' data.
std::string pet_status_after(const std::vector<LogEvent>& events, std::int64_t version) {
  std::string status;
  for (const auto& e : events) {
    if (e.version > version) {
      break;
    }
    const auto data = parse(e.data);
    if (e.type == "io.petstore.pet.created" || e.type == "io.petstore.pet.updated") {
      status = data["status"].GetString();
    } else if (e.type == "io.petstore.pet.status_changed") {
      status = data["to"].GetString();
    }
  }
  return status;
}

// A stock ledger's units on hand after its event at `version`: stock_set
// sets them, a reservation takes them, a release gives them back (a
// consumption takes reserved units, not units on hand).
std::int64_t on_hand_after(const std::vector<LogEvent>& events, std::int64_t version) {
  std::int64_t on_hand = 0;
  for (const auto& e : events) {
    if (e.version > version) {
      break;
    }
    const auto data = parse(e.data);
    if (e.type == "io.petstore.inventory.stock_set") {
      on_hand = data["quantity"].GetInt64();
    } else if (e.type == "io.petstore.inventory.reserved") {
      on_hand -= data["quantity"].GetInt64();
    } else if (e.type == "io.petstore.inventory.released") {
      on_hand += data["quantity"].GetInt64();
    }
  }
  return on_hand;
}

class FaultCampaign : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_heal();
    // orders0 reaches the brokers through a proxy each (their LINK
    // listeners), for the link faults; every other client directly.
    links_ = std::make_unique<ClusterLinks>();
    redis_ = std::make_unique<OwnRedis>();
    store_ = std::make_unique<StoreDeployment>(
        2,
        StoreDeployment::Env{{"ORDER_OUTCOME_WAIT_MS", "1000"},
                             {"KAFKA_BROKERS", Stack::get().cluster_brokers},
                             {"REDIS_HOST", "127.0.0.1"},
                             {"REDIS_PORT", std::to_string(redis_->port())}},
        1,
        std::map<std::string, StoreDeployment::Env>{
            {"orders0", {{"KAFKA_BROKERS", Stack::get().cluster_link_brokers}}}});
  }
  // CAMPAIGN_ROUNDS=n repeats the phases n times: a soak (docs/development.md).
  static int rounds() {
    return static_cast<int>(config::Env::from_process().integer("CAMPAIGN_ROUNDS", 1, 1, 1000));
  }
  void TearDown() override {
    store_.reset();
    links_.reset();
    redis_.reset();
  }

  // A command to the store's Redis; its reply if a string or status.
  [[nodiscard]] std::string redis_reply(const std::vector<std::string>& args) const {
    auto c = redis_->connect();
    const auto reply = c.command(redis::Args(args.begin(), args.end()));
    const auto& r = redis::expect_ok(reply);
    return r.type == REDIS_REPLY_STRING || r.type == REDIS_REPLY_STATUS ? std::string(redis::as_string(r))
                                                                        : "";
  }
  [[nodiscard]] std::int64_t redis_used_memory() const {
    const auto info = redis_reply({"INFO", "memory"});
    const auto at = info.find("used_memory:");
    return at == std::string::npos ? 0 : std::stoll(info.substr(at + 12));
  }

  [[nodiscard]] std::unique_ptr<httplib::Client> client() const {
    auto c = store_->client();
    // Longer than anything the store may legitimately take (nginx waits
    // 30 s for a replica): no answer in this time is a hang.
    c->set_read_timeout(std::chrono::seconds(40));
    c->set_write_timeout(std::chrono::seconds(40));
    return c;
  }

  std::vector<ServiceProcess*> replicas() {
    std::vector<ServiceProcess*> out;
    for (const auto& service : StoreDeployment::services()) {
      for (size_t i = 0; i < 2; ++i) {
        out.push_back(&store_->replica(service, i));
      }
    }
    return out;
  }

  bool all_ready() {
    for (auto* r : replicas()) {
      const auto answer = r->client()->Get("/readyz");
      if (!answer || answer->status != 200) {
        return false;
      }
    }
    return true;
  }
  // Each replica that is not ready, and what its /readyz says: for a
  // failing phase's message.
  std::string not_ready() {
    std::string out;
    for (const auto& service : StoreDeployment::services()) {
      for (size_t i = 0; i < 2; ++i) {
        const auto answer = store_->replica(service, i).client()->Get("/readyz");
        if (!answer || answer->status != 200) {
          out += "\n  " + service + std::to_string(i) + ": " +
                 (answer ? std::to_string(answer->status) + " " + answer->body : "no answer");
        }
      }
    }
    return out;
  }

  // Sends `send` until it is answered something other than "retry" (a client
  // honouring Retry-After, here capped at a second so the campaign stays
  // short), recording every answer; returns the last. outcome_unknown is an
  // answer, not a retry: the write may be in the log. A 409 is retried even
  // once the campaign stops: its first attempt may wait for a forward to a
  // paused owner to time out, and a client that gave up then would leave a
  // 409 as its answer.
  httplib::Result until_not_unavailable(const std::string& what,
                                        const std::function<httplib::Result()>& send) {
    for (int attempt = 0;; ++attempt) {
      auto r = send();
      tally_.record(what, r);
      const bool again = r && ((r->status == 503 && error_code(r) != "outcome_unknown") ||
                               (r->status == 409 && error_code(r) == "request_in_progress"));
      const bool in_progress = again && r->status == 409;
      if (!again || attempt == 80 || (stop_ && !in_progress)) {
        return r;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
  }

  void acknowledged(Acknowledged a) {
    std::lock_guard lock(mutex_);
    acked_.push_back(std::move(a));
  }

  // An answer the store may give under faults: a success, a conflict the
  // domain explains, or 503 (checked for Retry-After by the tally).
  void expect_allowed(const std::string& what, const httplib::Result& r, const std::set<int>& ok) {
    if (r && !ok.contains(r->status) && r->status != 503) {
      std::lock_guard lock(mutex_);
      unexpected_.push_back(what + ": " + std::to_string(r->status) + " " + r->body);
    }
  }

  // A keyless create of a pet named `name` through `c`, one attempt: the
  // attempt's name is the proof of what it wrote. 201: acknowledged; 503
  // outcome_unknown: may be in the log; any other 503 or no answer: must
  // not be; any other answer in `refusals` is allowed. Returns whether to
  // try again (with a new name).
  bool keyless_create(httplib::Client& c, const std::string& name, std::int64_t category,
                      const std::string& what = "POST /pets (no key)", std::set<int> refusals = {}) {
    const auto r =
        post_json(c, "/pets", R"({"name":")" + name + R"(","categoryId":)" + std::to_string(category) + "}");
    tally_.record(what, r);
    refusals.insert(201);
    expect_allowed(what, r, refusals);
    std::lock_guard lock(mutex_);
    if (r && r->status == 201) {
      acked_.push_back({"pets", std::to_string(id_of(r)), 1, "io.petstore.pet.created",
                        "\"name\":\"" + name + "\",\"categoryId\":" + std::to_string(category),
                        what + " " + name, what});
      return false;
    }
    if (r && r->status == 422) {  // unknown_category: the log deleted it
      acked_.push_back({"categories", std::to_string(category), 0, "io.petstore.category.deleted", "",
                        what + " " + name + " answered 422", "refusal: 422 unknown_category"});
      return false;
    }
    if (r && r->status == 503 && error_code(r) == "outcome_unknown") {
      ++unknown_outcomes_;
      return false;
    }
    if (r && r->status == 503) {
      not_written_.emplace_back(name, error_code(r));
      return !stop_;
    }
    return false;  // no answer: the tally records it as a failure
  }

  std::unique_ptr<ClusterLinks> links_;  // orders0's, one to each broker
  std::unique_ptr<OwnRedis> redis_;
  std::unique_ptr<StoreDeployment> store_;
  kafka::Producer producer_{
      kafka::ProducerSettings{Stack::get().cluster_brokers, "fault-campaign", 2, 5000, ""}};
  Tally tally_;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::vector<Acknowledged> acked_;
  // Keyless creates answered "nothing written": their names, and the code.
  std::vector<std::pair<std::string, std::string>> not_written_;
  // Keyless orders answered "nothing written": their shipDates (each
  // attempt its own), and the code.
  std::vector<std::pair<std::string, std::string>> orders_not_written_;
  std::atomic<std::int64_t> ship_dates_{0};
  int unknown_outcomes_ = 0;
  std::vector<std::string> unexpected_;
  std::vector<std::int64_t> orders_;
};

TEST_F(FaultCampaign, EveryAcknowledgedWriteSurvivesOverlappingFaultsAndTheLogChecksOut) {
  auto http = client();
  const auto setup = stocked_pets(*http, "Campaign", 6, 5);  // stock near zero: an oversell would show
  ASSERT_TRUE(setup.stocked);
  const auto category = setup.category;
  const auto& pets = setup.pets;
  const auto pet_of = [&](int i) { return std::to_string(pets[static_cast<size_t>(i) % pets.size()]); };

  // --- the clients -----------------------------------------------------------
  std::vector<std::thread> clients;
  // Stopped and joined however the test leaves (a failed ASSERT returns).
  struct Join {
    std::atomic<bool>& stop;
    std::vector<std::thread>& threads;
    ~Join() {
      stop = true;
      for (auto& t : threads) {
        if (t.joinable()) {
          t.join();
        }
      }
    }
  } join{stop_, clients};
  const auto drive = [&](const std::function<void(httplib::Client&, int)>& step) {
    clients.emplace_back([&, step] {
      auto c = client();
      for (int i = 0; !stop_; ++i) {
        step(*c, i);
      }
    });
  };
  drive([&](httplib::Client& c, int i) {  // new pets, each with its Idempotency-Key
    const auto key = unique_name("pet");
    const auto name = "n" + std::to_string(i) + "-" + key;
    const auto r = until_not_unavailable("POST /pets", [&] {
      return post_json(c, "/pets",
                       R"({"name":")" + name + R"(","categoryId":)" + std::to_string(category) + "}",
                       {{"Idempotency-Key", key}});
    });
    expect_allowed("POST /pets", r, {201});
    if (r && r->status == 201) {
      acknowledged({"pets", std::to_string(id_of(r)), 1, "io.petstore.pet.created",
                    "\"name\":\"" + name + "\",\"categoryId\":" + std::to_string(category), "POST /pets",
                    "POST /pets (key)"});
    }
  });
  drive([&](httplib::Client& c, int) {  // new pets without a key: each attempt a name of its own
    const auto base = unique_name("keyless");
    for (int attempt = 0; keyless_create(c, base + "-" + std::to_string(attempt), category); ++attempt) {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
  });
  drive([&](httplib::Client& c, int i) {  // status changes on the stocked pets
    const auto path = "/pets/" + pet_of(i) + "/status";
    const auto* to = i % 2 == 0 ? "pending" : "available";
    const auto r = until_not_unavailable("PUT /pets/{id}/status", [&] {
      return put_json(c, path, std::string(R"({"status":")") + to + "\"}");
    });
    expect_allowed("PUT /pets/{id}/status", r, {200});
    if (r && r->status == 200) {
      // An answer of a change already made (same status) names the
      // version it found, whatever event that was: the pet has that
      // status there.
      acknowledged({"pets", pet_of(i), etag_version(r), "", "", "PUT " + path, "PUT /pets/{id}/status",
                    [to, v = etag_version(r)](const std::vector<LogEvent>& events) {
                      const auto status = pet_status_after(events, v);
                      return status == to ? std::string() : "status " + status + ", not " + to;
                    }});
    }
  });
  drive([&](httplib::Client& c,
            int) {  // a pet of this client's own: status changes with If-Match, then deleted
    const auto key = unique_name("own");
    const auto name = "own-" + key;
    auto r = until_not_unavailable("POST /pets", [&] {
      return post_json(c, "/pets",
                       R"({"name":")" + name + R"(","categoryId":)" + std::to_string(category) + "}",
                       {{"Idempotency-Key", key}});
    });
    expect_allowed("POST /pets", r, {201});
    if (!r || r->status != 201) {
      return;
    }
    const auto id = std::to_string(id_of(r));
    acknowledged({"pets", id, 1, "io.petstore.pet.created", "\"name\":\"" + name + "\"", "POST /pets",
                  "POST /pets (key)"});
    // No one else writes this pet: the version this client was last
    // answered is the log's, so a 412 (or a 404) contradicts the log
    // (expect_allowed reports it). An answer that leaves the outcome
    // open ends the pet's run.
    auto version = etag_version(r);
    const auto matching = [&] {
      return httplib::Headers{{"If-Match", "\"" + std::to_string(version) + "\""}};
    };
    const auto path = "/pets/" + id;
    for (int step = 0; step < 4; ++step) {
      const std::string to = step % 2 == 0 ? "pending" : "available";
      const std::string from = step % 2 == 0 ? "available" : "pending";
      r = until_not_unavailable("PUT /pets/{id}/status (If-Match)", [&] {
        return put_json(c, path + "/status", R"({"status":")" + to + "\"}", matching());
      });
      expect_allowed("PUT /pets/{id}/status (If-Match) at version " + std::to_string(version), r, {200});
      if (!r || r->status != 200) {
        return;
      }
      version = etag_version(r);
      std::string data = R"("from":")";
      data.append(from).append(R"(","to":")").append(to).append("\"");
      acknowledged({"pets", id, version, "io.petstore.pet.status_changed", std::move(data),
                    "PUT " + path + "/status", "PUT /pets/{id}/status (If-Match)"});
    }
    r = until_not_unavailable("DELETE /pets/{id} (If-Match)", [&] { return c.Delete(path, matching()); });
    expect_allowed("DELETE /pets/{id} (If-Match) at version " + std::to_string(version), r, {204});
    if (r && r->status == 204) {
      acknowledged({"pets", id, version + 1, "io.petstore.pet.deleted", "\"id\":" + id, "DELETE " + path,
                    "DELETE /pets/{id} (If-Match)"});
    }
  });
  drive([&](httplib::Client& c, int i) {  // a category deleted while pets are created in it
    auto r = until_not_unavailable("POST /categories", [&] {
      return post_json(c, "/categories", R"({"name":")" + unique_name("race") + "\"}");
    });
    expect_allowed("POST /categories", r, {201});
    if (!r || r->status != 201) {
      return;
    }
    const auto id = id_of(r);
    const auto path = "/categories/" + std::to_string(id);
    acknowledged({"categories", std::to_string(id), 1, "io.petstore.category.created", "", "POST /categories",
                  "POST /categories"});
    std::vector<std::thread> creating;
    creating.reserve(3);
    for (int k = 0; k < 3; ++k) {  // one attempt each: created, or refused as gone
      creating.emplace_back([&, k] {
        auto own = client();
        const auto base = unique_name("race-" + std::to_string(k));
        for (int attempt = 0; keyless_create(*own, base + "-" + std::to_string(attempt), id,
                                             "POST /pets (its category being deleted)", {422});
             ++attempt) {
          std::this_thread::sleep_for(std::chrono::milliseconds(300));
        }
      });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(15 * (i % 6)));
    r = until_not_unavailable("DELETE /categories/{id}", [&] { return c.Delete(path); });
    // 409: pets live in it (or are being created in it).
    expect_allowed("DELETE /categories/{id}", r, {204, 409});
    if (r && r->status == 204) {
      acknowledged({"categories", std::to_string(id), 0, "io.petstore.category.deleted", "", "DELETE " + path,
                    "DELETE /categories/{id}"});
    }
    for (auto& t : creating) {
      t.join();
    }
  });
  // An order placed: its id and the answer's status, or no id.
  struct Placed {
    std::string id;
    int status = 0;
  };
  const auto placed = [&](const httplib::Result& r, const std::string& data, const std::string& kind) {
    // 409: refused (no stock, the pet pending, or no such pet).
    expect_allowed(kind, r, {201, 202, 409});
    if (r && (r->status == 201 || r->status == 202 || r->status == 409) && r->has_header("Location")) {
      auto id = last_segment(r->get_header_value("Location"));
      acknowledged({"orders", id, 1, "io.petstore.order.placed", data, "POST /store/orders " + id, kind});
      std::lock_guard lock(mutex_);
      orders_.push_back(std::stoll(id));
      return Placed{id, r->status};
    }
    return Placed{};
  };
  const auto place = [&](httplib::Client& c, const std::string& pet) {
    const auto key = unique_name("order");
    const auto r = until_not_unavailable("POST /store/orders", [&] {
      return post_json(c, "/store/orders", R"({"petId":)" + pet + R"(,"quantity":1})",
                       {{"Idempotency-Key", key}});
    });
    return placed(r, "\"petId\":" + pet, "POST /store/orders (key)");
  };
  // A keyless order, each attempt with a shipDate of its own: the proof of
  // what it wrote, as a keyless pet's name is.
  const auto place_keyless = [&](httplib::Client& c, const std::string& pet) {
    for (;;) {
      const auto ship = events::format_time(
          std::chrono::system_clock::time_point(std::chrono::seconds(1'900'000'000 + ship_dates_++)));
      // {"petId":<pet>,"quantity":1,"shipDate":"<ship>"}, and its members as the event's data holds them.
      std::string data = R"("petId":)";
      data.append(pet).append(R"(,"quantity":1,"shipDate":")").append(ship).append("\"");
      const auto r = post_json(c, "/store/orders", "{" + data + "}");
      tally_.record("POST /store/orders (no key)", r);
      if (r && r->status == 503) {
        std::lock_guard lock(mutex_);
        if (error_code(r) == "outcome_unknown") {
          ++unknown_outcomes_;
          return Placed{};
        }
        orders_not_written_.emplace_back(ship, error_code(r));
      } else {
        return placed(r, data, "POST /store/orders (no key)");
      }
      if (stop_) {
        return Placed{};
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
  };
  for (int d = 0; d < 2; ++d) {
    // Orders (keyed, then keyless): every third one cancelled, every third
    // one the store reserved completed.
    drive([&, d](httplib::Client& c, int i) {
      const auto order = d == 0 ? place(c, pet_of(i)) : place_keyless(c, pet_of(i));
      if (order.id.empty() || i % 3 == 2 || (i % 3 == 1 && order.status != 201)) {
        return;
      }
      const bool cancel = i % 3 == 0;
      const auto path = "/store/orders/" + order.id + (cancel ? "/cancel" : "/complete");
      const auto what = cancel ? "POST /store/orders/{id}/cancel" : "POST /store/orders/{id}/complete";
      const auto r = until_not_unavailable(what, [&] { return post_json(c, path, "{}"); });
      // 409 to a cancel: the order was refused, or (order_awaiting_stock)
      // the inventory has not answered it yet. An order this client was
      // told is reserved, and that no one else touches, is completed.
      expect_allowed(what, r, cancel ? std::set<int>{200, 409} : std::set<int>{200});
      if (r && r->status == 200) {
        acknowledged({"orders", order.id, etag_version(r),
                      cancel ? "io.petstore.order.cancelled" : "io.petstore.order.completed", "",
                      "POST " + path, what});
      } else if (r && r->status == 409 &&
                 error_code(r) == "illegal_order_transition") {  // the log rejected it
        acknowledged({"orders", order.id, 0, "io.petstore.order.rejected", "",
                      "POST " + path + " answered 409", "refusal: 409 to a cancel"});
      }
    });
  }
  drive([&](httplib::Client& c, int i) {  // orders for pets that never existed
    const auto pet = std::to_string(4'000'000'000'000'000 + i);
    if (i % 2 == 0) {
      place(c, pet);
    } else {
      place_keyless(c, pet);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  });
  drive([&](httplib::Client& c, int i) {  // stock, near zero
    const auto path = "/store/inventory/items/" + pet_of(i);
    const auto quantity = std::to_string(i % 4);
    const auto r = until_not_unavailable("PUT /store/inventory/items/{id}", [&] {
      return put_json(c, path, R"({"quantity":)" + quantity + "}");
    });
    expect_allowed("PUT /store/inventory/items/{id}", r, {200});
    if (r && r->status == 200) {
      // A quantity already on hand appends nothing: the answer names the
      // version it found, which has that many units on hand.
      acknowledged({"inventory", pet_of(i), etag_version(r), "", "", "PUT " + path,
                    "PUT /store/inventory/items/{id}",
                    [q = i % 4, v = etag_version(r)](const std::vector<LogEvent>& events) {
                      const auto on_hand = on_hand_after(events, v);
                      return on_hand == q ? std::string()
                                          : std::to_string(on_hand) + " on hand, not " + std::to_string(q);
                    }});
    }
  });

  // --- the faults --------------------------------------------------------------
  std::map<std::string, int> faults;
  std::size_t paused_attempts = 0;
  std::size_t fenced = 0;
  std::size_t link_fenced = 0;
  std::size_t link_give_backs = 0;
  // How often the replica's log says any of `lines`.
  const auto said = [](const ServiceProcess& replica, std::initializer_list<const char*> lines) {
    const auto log = replica.log();
    std::size_t n = 0;
    for (const auto* line : lines) {
      for (auto at = log.find(line); at != std::string::npos; at = log.find(line, at + 1)) {
        ++n;
      }
    }
    return n;
  };
  // The supervisor every deployment runs a replica under (scripts/up's,
  // compose's restart policy): a replica that died is started again. A
  // death is a failure, except librdkafka 2.0.2 aborting the process on its
  // own transaction-state assertion (docs/reliability.md, "librdkafka's
  // faults"), which is counted among the faults.
  std::map<const ServiceProcess*, std::size_t> librdkafka_aborts;
  const auto supervise = [&] {
    for (auto* replica : replicas()) {
      if (!replica->wait_exit(std::chrono::milliseconds(0))) {
        continue;
      }
      const auto aborts = said(*replica, {kLibrdkafkaTxnAssertion});
      if (aborts > librdkafka_aborts[replica]) {
        ++faults["librdkafka 2.0.2 aborted a replica (its txn state assertion)"];
      } else {
        ADD_FAILURE() << "a replica died:\n" << replica->log_tail();
      }
      librdkafka_aborts[replica] = aborts;
      replica->restart();
    }
  };
  const auto phase = [&](const char* name, const std::function<void()>& fault) {
    std::printf("campaign: %s\n", name);
    std::fflush(stdout);
    fault();
    ASSERT_TRUE(eventually(
        [&] {
          supervise();
          return all_ready();
        },
        std::chrono::seconds(60)))
        << "after: " << name << "; not ready:" << not_ready();
    std::this_thread::sleep_for(std::chrono::seconds(2));  // traffic on the recovered store
    supervise();
  };
  const auto fenced_lines = [&](const ServiceProcess& replica) {
    return said(replica, {"fenced by the broker"});
  };
  // A reactor's batch given back, or a give-back that failed (the stall
  // the links make is meant to fall across one).
  const auto given_back = [&](const ServiceProcess& replica) {
    return said(replica, {"a step kept failing", "batch not given back yet"});
  };
  const auto busiest_leader = [&](const std::string& topic) {
    std::map<int, int> led;
    for (int p = 0; p < 6; ++p) {
      ++led[cluster_leader(store_->topic(topic), p)];
    }
    return std::max_element(led.begin(), led.end(),
                            [](const auto& a, const auto& b) { return a.second < b.second; })
        ->first;
  };
  std::this_thread::sleep_for(std::chrono::seconds(2));
  for (int round = 0; round < rounds() && !HasFatalFailure(); ++round) {
    // The writer's pause is tried again (three times at most) until an
    // append of the paused writer is refused by the broker: whether the
    // waiting commands reach its stale writer before its group tells it of
    // the takeover is a race, and a run without a refusal shows no fencing.
    for (int attempt = 0; attempt < 3 && fenced == 0; ++attempt) {
      // Counted once the phase is over: a refused append is logged when its
      // commit fails, which may come after the waiting commands' answers.
      const auto fenced_before = fenced_lines(store_->replica("pets", 1));
      phase(
          "a pets writer paused 16 s with commands in its socket; meanwhile the pets topic's busiest leader "
          "killed and started again, and Redis paused",
          [&] {
            auto& writer = store_->replica("pets", 1);
            // Pets on the writer's own partitions (a keyless create goes to
            // one it owns), whose status changes wait in its socket too: a
            // change asks no other writer, so the stale writer appends it
            // as it wakes, where a create first has its category's writer
            // admit the pet and may hear of the takeover meanwhile.
            std::vector<std::string> own;
            {
              auto c = writer.client();
              for (int i = 0; i < 4; ++i) {
                const auto r = post_json(*c, "/pets",
                                         R"({"name":")" + unique_name("held") + R"(","categoryId":)" +
                                             std::to_string(category) + "}");
                tally_.record("POST /pets (the writer's own)", r);
                if (r && r->status == 201) {
                  own.push_back(std::to_string(id_of(r)));
                }
              }
            }
            ::kill(writer.pid(), SIGSTOP);
            ++faults["SIGSTOP a writer past its session"];
            // Early, so that the takeover's claim (which needs the
            // transaction coordinator, maybe on this broker) is done before
            // the writer wakes.
            const int leader = busiest_leader("pets");
            cluster_node_kill(leader);
            ++faults["SIGKILL a busy partition's leader broker"];
            std::vector<std::thread> waiting;
            waiting.reserve(12 + own.size());
            for (int i = 0; i < 12; ++i) {  // keyless creates straight to it: it appends when it resumes
              waiting.emplace_back([&, i] {
                auto c = writer.client();
                c->set_read_timeout(std::chrono::seconds(60));
                keyless_create(*c, unique_name("paused-" + std::to_string(i)), category);
              });
            }
            for (const auto& pet : own) {  // status changes straight to it: it decides them as it resumes
              waiting.emplace_back([&, pet] {
                auto c = writer.client();
                c->set_read_timeout(std::chrono::seconds(60));
                const auto path = "/pets/" + pet + "/status";
                const auto r = put_json(*c, path, R"({"status":"pending"})");
                tally_.record("PUT /pets/{id}/status (paused writer)", r);
                expect_allowed("PUT /pets/{id}/status (paused writer)", r, {200});
                if (r && r->status == 200) {
                  acknowledged({"pets", pet, etag_version(r), "", "", "PUT " + path,
                                "PUT /pets/{id}/status (paused writer)",
                                [v = etag_version(r)](const std::vector<LogEvent>& events) {
                                  const auto status = pet_status_after(events, v);
                                  return status == "pending" ? std::string() : "status " + status;
                                }});
                }
              });
            }
            paused_attempts += waiting.size();
            std::this_thread::sleep_for(std::chrono::seconds(3));
            (void)redis_reply({"CLIENT", "PAUSE", "3000", "ALL"});
            ++faults["Redis CLIENT PAUSE"];
            std::this_thread::sleep_for(std::chrono::seconds(5));
            cluster_node_start(leader);
            std::this_thread::sleep_for(std::chrono::seconds(8));
            ::kill(writer.pid(), SIGCONT);
            for (auto& t : waiting) {
              t.join();
            }
          });
      fenced += fenced_lines(store_->replica("pets", 1)) - fenced_before;
    }
    // Not during the writer's pause: on waking, a replica whose read model
    // was wiped refuses commands (read_model_rebuilding) before they reach
    // its writer, and the broker would have nothing to refuse.
    phase(
        "Redis wiped while a replica of each service is SIGKILLed and a broker is killed; all started again",
        [&] {
          cluster_node_kill(2);
          ++faults["SIGKILL a broker"];
          (void)redis_reply({"FLUSHALL"});  // everything this store keeps
          ++faults["Redis wiped"];
          for (const auto& service : StoreDeployment::services()) {
            store_->replica(service, 0).kill_hard();
            ++faults["SIGKILL a replica"];
          }
          std::this_thread::sleep_for(std::chrono::seconds(3));
          cluster_node_start(2);
          for (const auto& service : StoreDeployment::services()) {
            store_->replica(service, 0).restart();
          }
        });
    phase(
        "the leader of the most inventory partitions killed while an orders and an inventory replica are "
        "paused 8 s and another broker is paused 3 s",
        [&] {
          auto& orders = store_->replica("orders", 1);
          auto& inventory = store_->replica("inventory", 1);
          ::kill(orders.pid(), SIGSTOP);
          ::kill(inventory.pid(), SIGSTOP);
          faults["SIGSTOP a replica past its session"] += 2;
          const int victim = busiest_leader("inventory");
          cluster_node_kill(victim);
          ++faults["SIGKILL a busy partition's leader broker"];
          const int other = victim == 3 ? 1 : 3;
          cluster_node_pause(other);
          ++faults["SIGSTOP a broker"];
          std::this_thread::sleep_for(std::chrono::seconds(3));
          cluster_node_resume(other);
          std::this_thread::sleep_for(std::chrono::seconds(5));
          ::kill(orders.pid(), SIGCONT);
          ::kill(inventory.pid(), SIGCONT);
          cluster_node_start(victim);
        });
    phase("Redis at its memory limit (maxmemory at its use, volatile-lru as deployed) for 8 s", [&] {
      (void)redis_reply({"CONFIG", "SET", "maxmemory-policy", "volatile-lru"});
      (void)redis_reply({"CONFIG", "SET", "maxmemory", std::to_string(redis_used_memory())});
      ++faults["Redis at its maxmemory"];
      std::this_thread::sleep_for(std::chrono::seconds(8));
      (void)redis_reply({"CONFIG", "SET", "maxmemory", "0"});
    });
    phase("Redis killed (SIGKILL) and started again on its append-only file", [&] {
      redis_->crash();
      ++faults["SIGKILL Redis"];
      std::this_thread::sleep_for(std::chrono::seconds(2));
      redis_->start();
    });
    phase("orders0's links to every broker delayed 400 ms, then stalled past its sessions, then cut", [&] {
      const auto gave_back_before = given_back(store_->replica("orders", 0));
      const auto fenced_before = fenced_lines(store_->replica("orders", 0));
      links_->delay(std::chrono::milliseconds(400));
      ++faults["links delayed 400 ms"];
      std::this_thread::sleep_for(std::chrono::seconds(6));
      links_->delay(std::chrono::milliseconds(0));
      links_->stall(true);
      ++faults["links stalled 12 s"];
      std::this_thread::sleep_for(std::chrono::seconds(12));
      links_->cut();
      links_->stall(false);
      ++faults["links cut"];
      link_fenced += fenced_lines(store_->replica("orders", 0)) - fenced_before;
      link_give_backs += given_back(store_->replica("orders", 0)) - gave_back_before;
    });
  }
  stop_ = true;
  for (auto& t : clients) {
    t.join();
  }
  supervise();
  ASSERT_FALSE(HasFatalFailure());

  // --- the checks --------------------------------------------------------------
  // Every order placed resolves within 60 s, as the store answers it.
  std::vector<std::string> waiting;
  eventually(
      [&] {
        waiting.clear();
        for (const auto id : orders_) {
          const auto r = http->Get(("/store/orders/" + std::to_string(id)).c_str());
          if (!r || r->status != 200 || parse(r->body)["status"].GetString() == std::string("placed")) {
            waiting.push_back(
                std::to_string(id) + ": " +
                (r ? std::to_string(r->status) + " " + r->body : httplib::to_string(r.error())));
          }
        }
        return waiting.empty();
      },
      std::chrono::seconds(60));
  EXPECT_TRUE(waiting.empty()) << waiting.size() << " of " << orders_.size()
                               << " orders have no outcome after 60 s, first: " << waiting.front();

  // The log stops growing, and the reactors' groups have committed every
  // partition through its end: nothing they would append is still to come.
  const auto reactors_through = [&] {
    for (const auto& [group, input] :
         std::vector<std::pair<std::string, std::string>>{{"inventory.pets-reactor", "pets"},
                                                          {"inventory.orders-reactor", "orders"},
                                                          {"orders.outcome-reactor", "inventory"}}) {
      const auto topic = store_->topic(input);
      kafka::GroupOffsets committed(store_->brokers(), store_->prefix() + "." + group);
      const auto marks = producer_.watermarks(topic, 5000);
      for (size_t p = 0; p < marks.size(); ++p) {  // an empty partition has nothing committed
        if (marks[p].high > 0 &&
            committed.committed(topic, static_cast<std::int32_t>(p), 5000) < marks[p].high) {
          return false;
        }
      }
    }
    return true;
  };
  std::vector<std::int64_t> ends;
  auto stable_since = std::chrono::steady_clock::now();
  ASSERT_TRUE(eventually(
      [&] {
        std::vector<std::int64_t> now;
        for (const auto* t : {"pets", "categories", "orders", "inventory"}) {
          for (const auto& w : producer_.watermarks(store_->topic(t), 5000)) {
            now.push_back(w.high);
          }
        }
        if (now != ends) {
          ends = now;
          stable_since = std::chrono::steady_clock::now();
        }
        return std::chrono::steady_clock::now() - stable_since > std::chrono::seconds(3) &&
               reactors_through();
      },
      std::chrono::seconds(90)));

  // The log, from docs/events.md alone.
  std::map<std::string, LogTopic> log;
  for (const auto* t : {"pets", "categories", "orders", "inventory"}) {
    log[t] = read_events_of(store_->brokers(), store_->topic(t));
  }
  std::vector<std::string> violations;
  const auto violation = [&](std::string v) {
    ADD_FAILURE() << v;
    violations.push_back(std::move(v));
  };
  // Acknowledged writes, as those events.
  std::map<std::string, int> acked_kinds;
  for (const auto& a : acked_) {
    ++acked_kinds[a.kind];
    const auto& events = log[a.topic][a.aggregate];
    const auto at = std::ranges::find_if(events, [&](const LogEvent& e) {
      return a.version == 0 ? e.type == a.type : e.version == a.version;
    });
    if (at == events.end()) {
      violation(a.what + ": acknowledged " +
                (a.version == 0 ? a.type : "at version " + std::to_string(a.version)) + " of " + a.topic +
                "/" + a.aggregate + ", which the log does not hold");
    } else if ((!a.type.empty() && at->type != a.type) || at->data.find(a.data) == std::string::npos) {
      violation(a.what + ": version " + std::to_string(at->version) + " of " + a.topic + "/" + a.aggregate +
                " is " + at->type + " " + at->data + ", not the acknowledged " + a.type + " " + a.data);
    } else if (a.state) {
      if (const auto wrong = a.state(events); !wrong.empty()) {
        violation(a.what + ": acknowledged at version " + std::to_string(a.version) + " of " + a.topic + "/" +
                  a.aggregate + ", where the log has " + wrong);
      }
    }
  }
  // Keyless creates answered "nothing written".
  for (const auto& [name, code] : not_written_) {
    for (const auto& [pet, events] : log["pets"]) {
      for (const auto& e : events) {
        if (e.type == "io.petstore.pet.created" && e.data.find("\"" + name + "\"") != std::string::npos) {
          std::string v = "POST /pets " + name;
          v.append(" was answered 503 ")
              .append(code)
              .append(" (nothing written), and pet ")
              .append(pet)
              .append(" has it");
          violation(std::move(v));
        }
      }
    }
  }
  // Keyless orders answered "nothing written".
  for (const auto& [ship, code] : orders_not_written_) {
    for (const auto& [order, events] : log["orders"]) {
      if (events.front().type == "io.petstore.order.placed" &&
          events.front().data.find(std::string(R"("shipDate":")").append(ship).append("\"")) !=
              std::string::npos) {
        std::string v = "POST /store/orders with shipDate ";
        v.append(ship).append(" was answered 503 ").append(code).append(" (nothing written), and order ");
        violation(v.append(order).append(" has it"));
      }
    }
  }
  // Versions 1..n per aggregate.
  for (const auto& [topic, aggregates] : log) {
    for (const auto& [aggregate, events] : aggregates) {
      for (std::size_t i = 0; i < events.size(); ++i) {
        if (events[i].version != static_cast<std::int64_t>(i) + 1) {
          std::string v = topic;
          v += "/" + aggregate + ": event " + std::to_string(i + 1) + " has version " +
               std::to_string(events[i].version);
          violation(std::move(v));
          break;
        }
      }
    }
  }
  // No stock oversold: a ledger's available units (stock_set sets them,
  // reserved takes units, released gives them back) never below zero.
  const auto number = [](const std::string& data, const std::string& field) -> std::int64_t {
    const auto at = data.find("\"" + field + "\":");
    return at == std::string::npos ? 0 : std::stoll(data.substr(at + field.size() + 3));
  };
  for (const auto& [pet, events] : log["inventory"]) {
    std::int64_t available = 0;
    for (const auto& e : events) {
      if (e.type == "io.petstore.inventory.stock_set") {
        available = number(e.data, "quantity");
      } else if (e.type == "io.petstore.inventory.reserved") {
        available -= number(e.data, "quantity");
      } else if (e.type == "io.petstore.inventory.released") {
        available += number(e.data, "quantity");
      }
      if (available < 0) {
        violation("pet " + pet + " oversold at version " + std::to_string(e.version) + ": " + e.data);
        break;
      }
    }
  }
  // No pet lives in a deleted category: a pet's last event is its deletion,
  // or its category (as created or last replaced) still exists.
  std::set<std::int64_t> deleted_categories;
  for (const auto& [id, events] : log["categories"]) {
    if (events.back().type == "io.petstore.category.deleted") {
      deleted_categories.insert(std::stoll(id));
    }
  }
  for (const auto& [pet, events] : log["pets"]) {
    std::int64_t in = 0;
    for (const auto& e : events) {
      if (e.type == "io.petstore.pet.created" || e.type == "io.petstore.pet.updated") {
        in = number(e.data, "categoryId");
      }
    }
    if (events.back().type != "io.petstore.pet.deleted" && deleted_categories.contains(in)) {
      violation("pet " + pet + " lives in category " + std::to_string(in) + ", which the log deleted");
    }
  }
  // The steps the inventory owes: a cancelled order's reservation released,
  // a completed one's consumed, none held for a rejected one; every pet
  // created tracked.
  std::map<std::int64_t, std::set<std::string>> inventory_steps;  // order -> the inventory's event types
  for (const auto& [pet, events] : log["inventory"]) {
    for (const auto& e : events) {
      if (const auto order = number(e.data, "orderId"); order != 0) {
        inventory_steps[order].insert(e.type);
      }
    }
  }
  for (const auto& [order, events] : log["orders"]) {
    const auto& steps = inventory_steps[std::stoll(order)];
    const auto has = [&](const char* type) {
      return std::ranges::any_of(events, [&](const LogEvent& e) { return e.type == type; });
    };
    if (!steps.contains("io.petstore.inventory.reserved")) {
      continue;
    }
    if (has("io.petstore.order.cancelled") && !steps.contains("io.petstore.inventory.released")) {
      violation("order " + order + " was cancelled and its reserved units never released");
    }
    if (has("io.petstore.order.completed") && !steps.contains("io.petstore.inventory.consumed")) {
      violation("order " + order + " was completed and its reserved units never consumed");
    }
    if (has("io.petstore.order.rejected") && !steps.contains("io.petstore.inventory.released")) {
      violation("order " + order + " was rejected while the inventory holds units for it");
    }
  }
  for (const auto& [pet, events] : log["pets"]) {
    const auto& ledger = log["inventory"][pet];
    if (events.front().type == "io.petstore.pet.created" &&
        std::ranges::none_of(ledger,
                             [](const LogEvent& e) { return e.type == "io.petstore.inventory.tracked"; })) {
      violation("pet " + pet + " was created and the inventory never tracked it");
    }
  }
  // Every order placed has its outcome in the log, as its second event:
  // only the inventory's answer moves a placed order (docs/saga.md).
  for (const auto& [order, events] : log["orders"]) {
    if (events.size() < 2 || events[1].version != 2 ||
        (events[1].type != "io.petstore.order.reserved" && events[1].type != "io.petstore.order.rejected")) {
      violation("order " + order + " has no outcome in the log as its second event");
    }
  }

  const auto verify = store_->audit(PETSTORE_AUDIT_BINARY, "verify --max-pending-age 60");
  EXPECT_EQ(verify.status, 0) << verify.out;
  const auto rebuild = store_->audit(PETSTORE_AUDIT_BINARY, "rebuild");
  EXPECT_EQ(rebuild.status, 0) << rebuild.out;
  EXPECT_NE(rebuild.out.find("\n0 differences\n"), std::string::npos) << rebuild.out;

  // Every replica answers each stocked pet (pets), its ledger (inventory)
  // and the last orders (orders) at the version the log ends at.
  const auto last = [&](const std::string& topic, const std::string& id) {
    return log[topic][id].empty() ? 0 : log[topic][id].back().version;
  };
  struct Read {
    std::string path;
    std::string topic;  // which service serves it, and where its versions are
    std::string id;
  };
  std::vector<Read> reads;
  for (const auto pet : pets) {
    const auto id = std::to_string(pet);
    reads.push_back({"/pets/" + id + "/profile", "pets", id});
    reads.push_back({"/store/inventory/items/" + id, "inventory", id});
  }
  for (size_t o = orders_.size() > 10 ? orders_.size() - 10 : 0; o < orders_.size(); ++o) {
    const auto id = std::to_string(orders_[o]);
    reads.push_back({"/store/orders/" + id, "orders", id});
  }
  for (const auto& read : reads) {
    for (size_t i = 0; i < 2; ++i) {
      const auto answer = store_->replica(read.topic, i).client()->Get(read.path.c_str());
      ASSERT_TRUE(answer) << read.path;
      EXPECT_EQ(etag_version(answer), last(read.topic, read.id))
          << read.topic << " replica " << i << ": " << read.path << " " << answer->body;
    }
  }

  std::size_t records = 0;
  for (const auto& [topic, aggregates] : log) {
    for (const auto& [aggregate, events] : aggregates) {
      records += events.size();
    }
  }
  std::printf(
      "campaign: %zu acknowledged writes, %zu keyless pet creates and %zu keyless orders answered "
      "nothing-written (none in the log), %d answered outcome_unknown, %zu orders, %zu events in the log\n",
      acked_.size(), not_written_.size(), orders_not_written_.size(), unknown_outcomes_, orders_.size(),
      records);
  for (const auto& [kind, n] : acked_kinds) {
    std::printf("campaign: acknowledged %-40s x %d\n", kind.c_str(), n);
  }
  for (const auto& [kind, n] : faults) {
    std::printf("campaign: fault %-44s x %d\n", kind.c_str(), n);
  }
  std::printf(
      "campaign: the paused writer's commands: %zu sent while it was paused; appends fenced by the "
      "broker: %zu\n",
      paused_attempts, fenced);
  const int link_connections = links_->connections();
  std::printf(
      "campaign: orders0 opened %d connections through its links; appends fenced after the cut: %zu; "
      "reactor batches given back (or not yet) across the stall: %zu\n",
      link_connections, link_fenced, link_give_backs);
  std::printf("campaign: %zu violations\n", violations.size());
  for (const auto& [answer, n] : tally_.answers) {
    std::printf("  %6d x %s\n", n, answer.c_str());
  }
  EXPECT_GE(fenced, 1U) << "the paused writer appended nothing the broker refused: this run shows no fencing";
  EXPECT_GT(link_connections, 0)
      << "orders0 never reached a broker through its links: no link fault happened";
  EXPECT_TRUE(tally_.failures.empty())
      << tally_.failures.size() << " failures, first: " << tally_.failures.front();
  EXPECT_TRUE(unexpected_.empty()) << unexpected_.size()
                                   << " unexpected answers, first: " << unexpected_.front();
  EXPECT_GT(acked_.size(), 100U);
}

}  // namespace
}  // namespace petstore::testing
