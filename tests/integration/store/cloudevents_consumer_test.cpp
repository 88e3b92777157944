// A downstream team's consumer, written from docs/consumers.md alone
// (tools/cloudevents-consumer: kafkajs reading read_committed, the
// CloudEvents SDK's Kafka binding), reads every record of every topic a
// deployment wrote as a valid event, a writer fenced by the broker
// included: a pets replica paused past its group session, with commands
// waiting in its socket, resumes and appends; the broker refuses its
// transactions, and the consumer sees nothing of them.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "support/eventually.h"
#include "support/http_json.h"
#include "support/service_process.h"
#include "support/stack.h"
#include "support/store_deployment.h"

namespace petstore::testing {
namespace {

TEST(CloudEventsConsumer, ReadsEveryRecordOfEveryTopicAsAValidEvent) {
  StoreDeployment store(2);
  auto http = store.client();
  const auto setup = stocked_pets(*http, "Consumers", 3, 5);
  ASSERT_TRUE(setup.stocked);
  for (int i = 0; i < 6; ++i) {
    post_json(*http, "/store/orders",
              R"({"petId":)" + std::to_string(setup.pets[static_cast<size_t>(i) % setup.pets.size()]) +
                  R"(,"quantity":1})");
  }

  // Keyless creates sent straight to a pets replica while it is paused past
  // its session: the other replica takes its partitions over meanwhile.
  auto& paused = store.replica("pets", 0);
  ::kill(paused.pid(), SIGSTOP);
  std::vector<int> statuses(4, 0);
  std::vector<std::thread> waiting;
  waiting.reserve(statuses.size());
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    waiting.emplace_back([&, i] {
      auto c = paused.client();
      c->set_read_timeout(std::chrono::seconds(60));
      const auto r = post_json(*c, "/pets",
                               R"({"name":"while paused )" + std::to_string(i) + R"(","categoryId":)" +
                                   std::to_string(setup.category) + "}");
      statuses[i] = r ? r->status : -1;
    });
  }
  std::this_thread::sleep_for(std::chrono::seconds(12));  // twice the session timeout
  auto other = store.replica("pets", 1).client();         // the new owner writes meanwhile
  other->set_read_timeout(std::chrono::seconds(30));
  for (int i = 0; i < 3; ++i) {
    const auto r = post_retrying(*other, "/pets",
                                 R"({"name":"beside )" + std::to_string(i) + R"(","categoryId":)" +
                                     std::to_string(setup.category) + "}",
                                 unique_name("beside"));
    EXPECT_TRUE(r && r->status == 201) << (r ? r->body : "no answer");
  }
  ::kill(paused.pid(), SIGCONT);
  for (auto& t : waiting) {
    t.join();
  }
  ASSERT_TRUE(eventually([&] { return paused.client()->Get("/readyz")->status == 200; }));
  post_json(*http, "/pets", R"({"name":"after","categoryId":)" + std::to_string(setup.category) + "}");
  std::string answers;
  for (const auto s : statuses) {
    answers += std::to_string(s) + " ";
  }
  std::size_t fenced = 0;
  const auto log = paused.log();
  for (auto at = log.find("fenced by the broker"); at != std::string::npos;
       at = log.find("fenced by the broker", at + 1)) {
    ++fenced;
  }
  std::printf("paused replica's commands answered: %s; fenced by the broker: %zu line(s)\n", answers.c_str(),
              fenced);

  std::vector<std::string> topics;
  std::size_t records = 0;
  for (const auto* t : {"pets", "categories", "orders", "inventory", "apikeys"}) {
    topics.push_back(store.topic(t));
    records += read_topic(store.brokers(), store.topic(t)).size();
  }
  std::string list;
  for (const auto& t : topics) {
    list += (list.empty() ? "" : ",") + t;
  }
  const auto run =
      run_command("cd " + std::string(PETSTORE_SOURCE_DIR) +
                  "/tools/cloudevents-consumer && "
                  "{ test -d node_modules/kafkajs || npm ci --no-audit --no-fund --loglevel=error; } && "
                  "node consume.mjs --idle-ms 5000 --brokers " +
                  store.brokers() + " --topics " + list);
  ASSERT_EQ(run.status, 0) << run.out;
  const auto line = run.out.substr(run.out.rfind("{\"records\""));
  const auto report = parse(line);
  ASSERT_TRUE(report.IsObject()) << run.out;
  EXPECT_EQ(report["refused"].Size(), 0U) << line;
  EXPECT_EQ(report["events"].GetUint64(), records) << line;
  EXPECT_GT(records, 20U);
  std::printf("%s", line.c_str());
}

}  // namespace
}  // namespace petstore::testing
