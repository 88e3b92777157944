// The order saga through the entry point, with two replicas of every service:
// pets -> inventory entry -> stock -> order reserved/refused -> complete or
// cancel, and the invariants under concurrency (docs/api.md, "Conventions").
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "events/envelope.h"
#include "events/kafka_binding.h"
#include "json/event_fields.h"
#include "kafka/producer.h"
#include "support/eventually.h"
#include "support/http_json.h"
#include "support/stack.h"
#include "support/store_deployment.h"

namespace petstore::testing {
namespace {

class StoreSagaTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { store_ = std::make_unique<StoreDeployment>(2); }
  static void TearDownTestSuite() { store_.reset(); }

  void SetUp() override { http_ = store_->client(); }

  std::int64_t new_pet(const std::string& status = "available") {
    const auto cat = post_json(*http_, "/categories", R"({"name":"Cats"})");
    const auto pet = post_json(
        *http_, "/pets",
        R"({"name":"Tom","status":")" + status + R"(","categoryId":)" + std::to_string(id_of(cat)) + "}");
    EXPECT_EQ(pet->status, 201);
    return id_of(pet);
  }

  rapidjson::Document item(std::int64_t pet) {
    const auto r = http_->Get(("/store/inventory/items/" + std::to_string(pet)).c_str());
    return r && r->status == 200 ? parse(r->body) : rapidjson::Document();
  }

  void stock(std::int64_t pet, int quantity) {
    ASSERT_TRUE(stock_when_tracked(*http_, pet, quantity)) << "no inventory entry for pet " << pet;
  }

  httplib::Result order(std::int64_t pet, int quantity) {
    return post_json(
        *http_, "/store/orders",
        R"({"petId":)" + std::to_string(pet) + R"(,"quantity":)" + std::to_string(quantity) + "}");
  }

  // An order for one unit of a new pet stocked with `units`.
  httplib::Result a_stocked_pets_order(int units) {
    const auto pet = new_pet();
    stock(pet, units);
    return order(pet, 1);
  }

  // A producer whose open transaction holds every partition of the pets
  // topic: what is committed there after it stays unread by every
  // read_committed reader (the inventory's pets-reactor) until it ends.
  static std::unique_ptr<kafka::Producer> hold_back_pets() {
    auto open = std::make_unique<kafka::Producer>(kafka::ProducerSettings{
        Stack::get().kafka_brokers, "open-transaction", 0, 5000, unique_name("open-transaction"), 60'000});
    open->init_transactions(10'000);
    open->begin_transaction();
    const auto topic = store_->topic("pets");
    for (std::int32_t p = 0; p < open->partitions(topic); ++p) {
      open->send_to({topic, "held", "not an event"}, p).wait();
    }
    return open;
  }

  static std::unique_ptr<StoreDeployment> store_;
  std::unique_ptr<httplib::Client> http_;
};

std::unique_ptr<StoreDeployment> StoreSagaTest::store_;

TEST_F(StoreSagaTest, TheWholeStory) {
  const auto pet = new_pet();
  // A new pet gets an entry with no stock, which shows as sold.
  ASSERT_TRUE(eventually([&] { return item(pet).IsObject(); }));
  EXPECT_EQ(item(pet)["quantity"].GetInt64(), 0);
  EXPECT_STREQ(item(pet)["status"].GetString(), "sold");

  stock(pet, 5);
  EXPECT_STREQ(item(pet)["status"].GetString(), "available");

  const auto placed = order(pet, 3);
  ASSERT_EQ(placed->status, 201) << placed->body;
  const auto order_id = id_of(placed);
  EXPECT_EQ(placed->get_header_value("Location"), "/store/orders/" + std::to_string(order_id));
  const auto body = parse(placed->body);
  EXPECT_STREQ(body["status"].GetString(), "reserved");
  EXPECT_FALSE(body["complete"].GetBool());
  EXPECT_EQ(item(pet)["quantity"].GetInt64(), 2);
  EXPECT_EQ(item(pet)["reserved"].GetInt64(), 3);

  const auto listed = http_->Get(("/store/orders?petId=" + std::to_string(pet)).c_str());
  ASSERT_EQ(listed->status, 200);
  ASSERT_EQ(parse(listed->body).Size(), 1U);
  EXPECT_EQ(parse(listed->body)[0]["id"].GetInt64(), order_id);

  // Completing consumes the reserved units.
  const auto done = post_json(*http_, "/store/orders/" + std::to_string(order_id) + "/complete",
                              R"({"shipDate":"2026-12-01T10:00:00Z"})");
  ASSERT_EQ(done->status, 200) << done->body;
  EXPECT_TRUE(parse(done->body)["complete"].GetBool());
  EXPECT_STREQ(parse(done->body)["shipDate"].GetString(), "2026-12-01T10:00:00Z");
  ASSERT_TRUE(eventually([&] { return item(pet)["reserved"].GetInt64() == 0; }));
  EXPECT_EQ(item(pet)["quantity"].GetInt64(), 2);
  const auto complete_list = http_->Get(("/store/orders?complete=true&petId=" + std::to_string(pet)).c_str());
  EXPECT_EQ(parse(complete_list->body).Size(), 1U);

  // Cancelling releases them; the last units reserved show the entry pending.
  const auto second = order(pet, 2);
  ASSERT_EQ(second->status, 201) << second->body;
  EXPECT_STREQ(item(pet)["status"].GetString(), "pending");
  const auto cancelled = post_json(*http_, "/store/orders/" + std::to_string(id_of(second)) + "/cancel", "");
  ASSERT_EQ(cancelled->status, 200) << cancelled->body;
  EXPECT_STREQ(parse(cancelled->body)["status"].GetString(), "cancelled");
  ASSERT_TRUE(eventually([&] { return item(pet)["quantity"].GetInt64() == 2; }));
  EXPECT_EQ(item(pet)["reserved"].GetInt64(), 0);
  EXPECT_STREQ(item(pet)["status"].GetString(), "available");

  // Final states stay final.
  const auto again = post_json(*http_, "/store/orders/" + std::to_string(id_of(second)) + "/complete", "");
  EXPECT_EQ(error_code(again), "illegal_order_transition");
  EXPECT_EQ(again->status, 409);

  // The summary counts entries per status.
  const auto summary = parse(http_->Get("/store/inventory")->body);
  EXPECT_GE(summary["available"].GetInt64(), 1);
}

TEST_F(StoreSagaTest, RefusedOrdersChangeNothing) {
  const auto pet = new_pet();
  stock(pet, 2);

  const auto too_many = order(pet, 3);
  EXPECT_EQ(too_many->status, 409);
  EXPECT_EQ(error_code(too_many), "insufficient_stock");
  // The refused order exists, rejected, and reserved nothing.
  const auto refused = http_->Get(too_many->get_header_value("Location").c_str());
  ASSERT_EQ(refused->status, 200);
  EXPECT_STREQ(parse(refused->body)["status"].GetString(), "rejected");
  EXPECT_STREQ(parse(refused->body)["rejection"].GetString(), "insufficient_stock");
  EXPECT_EQ(item(pet)["quantity"].GetInt64(), 2);
  EXPECT_EQ(item(pet)["reserved"].GetInt64(), 0);

  const auto unknown = order(987654321, 1);
  EXPECT_EQ(unknown->status, 409);
  EXPECT_EQ(error_code(unknown), "unknown_pet");

  const auto sold = new_pet("sold");
  stock(sold, 4);
  const auto not_available = order(sold, 1);
  EXPECT_EQ(error_code(not_available), "pet_not_available");
  EXPECT_EQ(item(sold)["quantity"].GetInt64(), 4);

  // A deleted pet's entry goes away, and it cannot be ordered.
  ASSERT_EQ(http_->Delete(("/pets/" + std::to_string(pet)).c_str())->status, 204);
  ASSERT_TRUE(eventually([&] { return !item(pet).IsObject(); }));
  EXPECT_EQ(error_code(order(pet, 1)), "unknown_pet");
}

TEST_F(StoreSagaTest, BadInputIsRefusedWithAClearError) {
  const auto pet = new_pet();
  stock(pet, 1);
  const auto path = "/store/inventory/items/" + std::to_string(pet);
  EXPECT_EQ(error_code(put_json(*http_, path, R"({"quantity":-1})")), "invalid_quantity");
  EXPECT_EQ(error_code(put_json(*http_, path, R"({"quantity":1000001})")), "invalid_quantity");
  EXPECT_EQ(error_code(put_json(*http_, path, R"({"quantity":"3"})")), "invalid_type");
  EXPECT_EQ(error_code(put_json(*http_, path, R"({})")), "missing_field");
  EXPECT_EQ(error_code(put_json(*http_, "/store/inventory/items/987654321", R"({"quantity":1})")),
            "inventory_item_not_found");
  EXPECT_EQ(error_code(put_json(*http_, path, R"({"quantity":1})", {{"If-Match", "\"999\""}})),
            "precondition_failed");

  EXPECT_EQ(error_code(order(pet, 0)), "invalid_quantity");
  EXPECT_EQ(error_code(order(pet, 1001)), "invalid_quantity");
  EXPECT_EQ(error_code(post_json(*http_, "/store/orders", R"({"quantity":1})")), "missing_field");
  EXPECT_EQ(error_code(post_json(*http_, "/store/orders",
                                 R"({"petId":)" + std::to_string(pet) + R"(,"shipDate":"tomorrow"})")),
            "invalid_value");
  EXPECT_EQ(error_code(post_json(*http_, "/store/orders",
                                 R"({"petId":)" + std::to_string(pet) + R"(,"complete":true})")),
            "invalid_value");
  EXPECT_EQ(error_code(post_json(*http_, "/store/orders", R"({"petId":1,"id":5})")), "read_only_field");
  EXPECT_EQ(error_code(http_->Get("/store/orders/987654321")), "order_not_found");
  EXPECT_EQ(error_code(http_->Get("/store/orders?status=lost")), "invalid_query");
  EXPECT_EQ(error_code(http_->Get("/store/orders?status=placed&complete=true")), "invalid_query");
  EXPECT_EQ(error_code(http_->Get("/store/inventory/items/abc")), "invalid_id");
  EXPECT_EQ(error_code(http_->Get("/store/nothing")), "route_not_found");
  // None of it touched the stock.
  EXPECT_EQ(item(pet)["quantity"].GetInt64(), 1);
}

// 50 clients order one unit each of a pet with 10 in stock, spread over both
// replicas of orders and inventory: exactly 10 are reserved, 40 refused
// (answered at once, or resolved later after a 202), and the log holds
// exactly one reservation per reserved order.
TEST_F(StoreSagaTest, FiftyConcurrentOrdersForTenUnits) {
  const auto pet = new_pet();
  stock(pet, 10);
  std::atomic<int> reserved{0};
  std::atomic<int> refused{0};
  std::atomic<int> other{0};
  std::vector<std::thread> clients;
  clients.reserve(50);
  for (int i = 0; i < 50; ++i) {
    clients.emplace_back([&] {
      auto http = store_->client();
      const auto r =
          post_json(*http, "/store/orders", R"({"petId":)" + std::to_string(pet) + R"(,"quantity":1})");
      if (r && r->status == 201) {
        ++reserved;
      } else if (r && r->status == 409 && error_code(r) == "insufficient_stock") {
        ++refused;
      } else if (r && r->status == 202) {
        // No answer within ORDER_OUTCOME_WAIT_MS (3 s): fifty orders for one
        // pet are decided one after another, and under ASan on a busy
        // machine the last can take longer (seen in a loop of this test).
        // The order resolves later at Location (docs/api.md, "Conventions"); here the
        // pet is known and available, so a rejection is for stock.
        std::string status = "placed";
        eventually([&] {
          const auto g = http->Get(r->get_header_value("Location").c_str());
          if (g && g->status == 200) {
            status = parse(g->body)["status"].GetString();
          }
          return status != "placed";
        });
        if (status == "reserved") {
          ++reserved;
        } else if (status == "rejected") {
          ++refused;
        } else {
          ++other;
          ADD_FAILURE() << "order at " << r->get_header_value("Location") << " ended " << status;
        }
      } else {
        ++other;
        ADD_FAILURE() << (r ? r->body : "no response");
      }
    });
  }
  for (auto& t : clients) {
    t.join();
  }
  EXPECT_EQ(reserved.load(), 10);
  EXPECT_EQ(refused.load(), 40);
  EXPECT_EQ(other.load(), 0);
  EXPECT_EQ(item(pet)["quantity"].GetInt64(), 0);
  EXPECT_EQ(item(pet)["reserved"].GetInt64(), 10);

  std::set<std::int64_t> reserved_orders;
  int reservations = 0;
  for (const auto& m : read_topic(store_->topic("inventory"))) {
    const auto e = events::from_message(m);
    if (e.aggregate_id() == pet && e.type == "io.petstore.inventory.reserved") {
      ++reservations;
      reserved_orders.insert(json::EventFields(e.data).integer("orderId"));
    }
  }
  EXPECT_EQ(reservations, 10);
  EXPECT_EQ(reserved_orders.size(), 10U);
}

// Orders run on the orders topic's single writer: concurrent commands on
// one order are decided one after the other on its owner's fold, so the
// order takes exactly one of two conflicting transitions and its events
// carry each version once.
TEST_F(StoreSagaTest, ConflictingCommandsOnOneOrderTakeOneTransitionWithOneVersionEach) {
  const auto placed = a_stocked_pets_order(2);
  ASSERT_EQ(placed->status, 201) << placed->body;
  const auto id = std::to_string(id_of(placed));
  std::atomic<int> completed{0};
  std::atomic<int> cancelled{0};
  std::atomic<int> conflicts{0};
  std::vector<std::thread> clients;
  clients.reserve(10);
  for (int i = 0; i < 10; ++i) {
    clients.emplace_back([&, i] {
      const auto r =
          post_json(*store_->client(), "/store/orders/" + id + (i % 2 ? "/complete" : "/cancel"), "{}");
      if (r && r->status == 200) {
        ++(i % 2 ? completed : cancelled);
      } else if (r && r->status == 409 && error_code(r) == "illegal_order_transition") {
        ++conflicts;
      } else {
        ADD_FAILURE() << (r ? r->body : "no response");
      }
    });
  }
  for (auto& t : clients) {
    t.join();
  }
  EXPECT_TRUE((completed == 5 && cancelled == 0) || (completed == 0 && cancelled == 5))
      << completed << " completed, " << cancelled << " cancelled";
  EXPECT_EQ(conflicts.load(), 5);
  std::vector<std::int64_t> versions;
  for (const auto& m : read_topic(store_->topic("orders"))) {
    if (m.key == id) {
      versions.push_back(events::parse_sequence(*m.header("ce_sequence")));
    }
  }
  EXPECT_EQ(versions, (std::vector<std::int64_t>{1, 2, 3})) << "placed, reserved, then one final step";
}

// An order for a pet whose creation is committed but held back from every
// read_committed reader by another producer's open transaction on its
// partition: the inventory cannot know the pet yet, so it must not refuse
// the order as unknown_pet (a rejection in the log for good). It waits for
// the pets reaction to reach the partition's high watermark; once the
// transaction ends, it decides on the pet it then knows.
TEST_F(StoreSagaTest, AnOrderForAPetHeldBackByAnOpenTransactionIsNotRefusedAsUnknown) {
  const auto open = hold_back_pets();
  const auto pet = new_pet();
  const auto placed = order(pet, 1);
  open->abort_transaction(10'000);
  ASSERT_TRUE(placed);
  ASSERT_TRUE(placed->has_header("Location")) << placed->status << " " << placed->body;
  const auto path = placed->get_header_value("Location");
  std::string status;
  std::string rejection;
  ASSERT_TRUE(eventually(
      [&] {
        const auto r = http_->Get(path.c_str());
        if (!r || r->status != 200) {
          return false;
        }
        const auto doc = parse(r->body);
        status = doc["status"].GetString();
        rejection = doc.HasMember("rejection") ? doc["rejection"].GetString() : "";
        return status != "placed";
      },
      std::chrono::seconds(30)))
      << "the order is still placed";
  // Tracked with no stock: refused for that, not as unknown.
  EXPECT_EQ(status, "rejected");
  EXPECT_EQ(rejection, "insufficient_stock");
}

// An order's outcome is decided by the inventory's answer alone, so the
// client and the read model have it before its own transaction: it must be
// the same event whoever records it, and however often. It takes its
// identity from the answer (docs/saga.md, "What the client sees").
TEST_F(StoreSagaTest, AnOrdersOutcomeTakesItsIdentityFromTheInventorysAnswer) {
  const auto placed = a_stocked_pets_order(1);
  ASSERT_EQ(placed->status, 201) << placed->body;
  const auto id = std::to_string(id_of(placed));
  EXPECT_EQ(placed->get_header_value("ETag"), "\"2\"");

  std::optional<events::Envelope> answer;
  std::optional<events::Envelope> outcome;
  ASSERT_TRUE(eventually([&] {
    for (const auto& m : read_topic(store_->topic("inventory"))) {
      auto e = events::from_message(m);
      if (e.type == "io.petstore.inventory.reserved" &&
          json::EventFields(e.data).integer("orderId") == id_of(placed)) {
        answer = std::move(e);
      }
    }
    for (const auto& m : read_topic(store_->topic("orders"))) {
      if (m.key == id && events::parse_sequence(*m.header("ce_sequence")) == 2) {
        outcome = events::from_message(m);
      }
    }
    return answer && outcome;
  }));
  EXPECT_EQ(outcome->type, "io.petstore.order.reserved");
  EXPECT_EQ(outcome->id, events::name_based_event_id("order-outcome/" + answer->id));
  EXPECT_EQ(outcome->time, answer->time);
  // The read model's history holds the log's event, not one like it.
  const auto history = http_->Get(("/store/orders/" + id + "/history").c_str());
  ASSERT_EQ(history->status, 200) << history->body;
  const auto events = parse(history->body);
  ASSERT_EQ(events.Size(), 2U) << history->body;
  EXPECT_EQ(std::string(events[1]["id"].GetString()), outcome->id) << history->body;
  EXPECT_EQ(std::string(events[1]["time"].GetString()), outcome->time) << history->body;
  ASSERT_FALSE(outcome->traceparent.empty());
  EXPECT_EQ(std::string(events[1]["traceparent"].GetString()), outcome->traceparent) << history->body;
  // The answer's trace, continued.
  EXPECT_EQ(outcome->traceparent.substr(3, 32), answer->traceparent.substr(3, 32));
}

// Nothing but the inventory's answer moves a placed order: a cancel that
// comes first waits for it, then decides on the order as answered, or, when
// the wait ends first, is refused for now and says when to try again. Here
// the pet's creation is held back from the inventory by another producer's
// open transaction, so the order stays placed (202) until that ends.
TEST_F(StoreSagaTest, ACancelOfAnOrderAwaitingItsStockWaitsForTheInventorysAnswer) {
  const auto open = hold_back_pets();
  const auto pet = new_pet();
  const auto placed = order(pet, 1);
  ASSERT_TRUE(placed);
  ASSERT_EQ(placed->status, 202) << placed->body;
  const auto id = std::to_string(id_of(placed));
  const auto cancel = [&] { return post_json(*store_->client(), "/store/orders/" + id + "/cancel", ""); };

  const auto too_soon = cancel();  // the wait (ORDER_OUTCOME_WAIT_MS) ends first
  ASSERT_TRUE(too_soon);
  EXPECT_EQ(too_soon->status, 409) << too_soon->body;
  EXPECT_EQ(error_code(too_soon), "order_awaiting_stock") << too_soon->body;
  EXPECT_EQ(too_soon->get_header_value("Retry-After"), "1");

  std::optional<httplib::Result> cancelled;
  std::thread client([&] { cancelled.emplace(cancel()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  open->abort_transaction(10'000);
  client.join();
  // Tracked with no stock, the pet's order is refused; a refused order is
  // not cancelled. Decided on the placed order, the cancel would have won.
  ASSERT_TRUE(cancelled && *cancelled);
  EXPECT_EQ((*cancelled)->status, 409) << (*cancelled)->body;
  EXPECT_EQ(error_code(*cancelled), "illegal_order_transition") << (*cancelled)->body;
  std::vector<std::string> types;
  for (const auto& m : read_topic(store_->topic("orders"))) {
    if (m.key == id) {
      types.push_back(*m.header("ce_type"));
    }
  }
  EXPECT_EQ(types, (std::vector<std::string>{"io.petstore.order.placed", "io.petstore.order.rejected"}));
}

// A placing request is answered by the replica that records its order's
// answer, which hands the order over in the process (docs/saga.md), not by
// a look at the read model. Here the request looks once a minute and waits
// as long, so without the hand-over the client (15 s read timeout) gets no
// answer at all. One replica of each service, so the order's partition
// cannot change hands in between (that case is the look's:
// store_replicas_test and the fault campaign).
class StoreSagaHandOverTest : public StoreSagaTest {
 protected:
  static void SetUpTestSuite() {
    store_ = std::make_unique<StoreDeployment>(
        1, std::map<std::string, std::string>{{"ORDER_OUTCOME_WAIT_MS", "60000"},
                                              {"ORDER_ANSWER_RECHECK_MS", "60000"}});
  }
};

TEST_F(StoreSagaHandOverTest, APlacingRequestGetsItsAnswerFromTheReplicaThatRecordedIt) {
  const auto pet = new_pet();
  stock(pet, 2);

  const auto reserved = order(pet, 2);
  ASSERT_TRUE(reserved) << "no answer: " << httplib::to_string(reserved.error());
  EXPECT_EQ(reserved->status, 201) << reserved->body;
  EXPECT_STREQ(parse(reserved->body)["status"].GetString(), "reserved");

  const auto refused = order(pet, 1);
  ASSERT_TRUE(refused) << "no answer: " << httplib::to_string(refused.error());
  EXPECT_EQ(refused->status, 409) << refused->body;
  EXPECT_EQ(error_code(refused), "insufficient_stock");
}

}  // namespace
}  // namespace petstore::testing
