// tools/event-tail, the example downstream consumer of docs/consumers.md,
// against Apache Kafka: it prints one line per pet and order event,
// and a redelivered record (the same aggregate and version again) once.
#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "kafka/producer.h"
#include "support/http_json.h"
#include "support/service_process.h"
#include "support/stack.h"
#include "support/store_deployment.h"

namespace petstore::testing {
namespace {

std::string tail_events(const StoreDeployment& store) {
  const std::string cmd = std::string(EVENT_TAIL_BINARY) + " --brokers " + Stack::get().kafka_brokers +
                          " --topics " + store.topic("pets") + "," + store.topic("orders") + " --group " +
                          unique_name("tail") + " --idle-exit 3";
  auto run = run_command(cmd);
  EXPECT_EQ(run.status, 0);
  return run.out;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

TEST(EventTail, PrintsEachPetAndOrderEventOnceEvenWhenRedelivered) {
  StoreDeployment store(1);
  auto http = store.client();
  const auto cat = id_of(post_json(*http, "/categories", R"({"name":"Dogs"})"));
  const auto pet =
      id_of(post_json(*http, "/pets", R"({"name":"Rex","categoryId":)" + std::to_string(cat) + "}"));
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (http->Get(("/store/inventory/items/" + std::to_string(pet)).c_str())->status != 200 &&
         std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(put_json(*http, "/store/inventory/items/" + std::to_string(pet), R"({"quantity":1})")->status,
            200);
  const auto order = post_json(*http, "/store/orders", R"({"petId":)" + std::to_string(pet) + "}");
  ASSERT_EQ(order->status, 201) << order->body;

  // The pet's creation, appended a second time: what a consumer sees after
  // a rebalance that replays uncommitted records.
  const auto records = read_topic(store.topic("pets"));
  ASSERT_FALSE(records.empty());
  kafka::Producer producer({Stack::get().kafka_brokers, "tail-test", 0, 5000, ""});
  producer.append(
      {records.front().topic, records.front().key, records.front().value, records.front().headers});

  const auto out = tail_events(store);
  EXPECT_EQ(count(out, "io.petstore.pet.created"), 1U) << out;
  EXPECT_EQ(count(out, " " + std::to_string(pet) + " v1 "), 1U) << out;
  EXPECT_EQ(count(out, "io.petstore.order.placed"), 1U) << out;
  EXPECT_EQ(count(out, "io.petstore.order.reserved"), 1U) << out;
  EXPECT_EQ(count(out, "io.petstore.inventory."), 0U) << out;  // not followed
}

// A malformed --idle-exit is refused before anything is read: std::atoi
// took "3s" for 3 and "x" for 0 (follow for ever) without a word.
TEST(EventTail, RefusesAnIdleExitThatIsNotAWholeNumberOfSeconds) {
  for (const char* bad : {"x", "3s", "-1", "99999999999999999999"}) {
    const auto run = run_command(std::string(EVENT_TAIL_BINARY) + " --brokers " + Stack::get().kafka_brokers +
                                 " --idle-exit " + bad + " 2>&1");
    EXPECT_EQ(run.status, 2) << bad;
    EXPECT_NE(run.out.find("--idle-exit takes a whole number of seconds"), std::string::npos) << run.out;
  }
}

}  // namespace
}  // namespace petstore::testing
