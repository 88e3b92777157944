// A replica that stops (SIGTERM, as an operator's rolling restart sends it)
// hands its partitions to the other replica, ends its idle connections and
// exits as soon as it has answered the requests in progress: not once its
// idle keep-alive connections time out, which kept commands for its
// partitions at 503 writer_moving meanwhile (docs/reliability.md, "A
// stopping replica holds its partitions").
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "support/http_json.h"
#include "support/raw_http.h"
#include "support/service_process.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

std::string url_of(const ServiceProcess& replica) {
  return "http://127.0.0.1:" + std::to_string(replica.port());
}

// Where the owners of the pets topic's partitions say they answer
// (es::OwnerHints): partition -> URL, as each owner records it when it claims.
std::map<std::string, std::string> owner_hints(const PetsDeployment& pets) {
  const auto flat = redis_command({"HGETALL", pets.redis_key_base() + "owners:" + pets.pets_topic()});
  std::map<std::string, std::string> out;
  for (size_t i = 0; i + 1 < flat.size(); i += 2) {
    out[flat[i]] = flat[i + 1];
  }
  return out;
}

std::string get(const std::string& path, const std::string& api_key) {
  return "GET " + path + " HTTP/1.1\r\nHost: pets\r\nX-API-Key: " + api_key + "\r\n\r\n";
}

TEST(PetsStopTest, AStoppingReplicaEndsItsIdleConnectionsAndHandsItsPartitionsOver) {
  // Idle keep-alive connections stay open for two minutes, far longer than
  // anything below waits.
  PetsDeployment pets(2, {{"HTTP_KEEPALIVE_TIMEOUT_S", "120"}});
  auto& staying = pets.replica(0);
  auto& leaving = pets.replica(1);

  // Both replicas own partitions of the pets topic, and say so.
  std::map<std::string, std::string> hints;
  for (int i = 0; i < 100; ++i) {
    hints = owner_hints(pets);
    if (hints.size() == 6 &&
        std::ranges::count_if(hints, [&](const auto& h) { return h.second == url_of(leaving); }) > 0 &&
        std::ranges::count_if(hints, [&](const auto& h) { return h.second == url_of(staying); }) > 0) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(hints.size(), 6U);

  // A pet created at the leaving replica is on a partition it owns
  // (es::AggregateWriter: a create with no Idempotency-Key goes to one).
  auto http = leaving.client();
  const auto category = id_of(post_json(*http, "/categories", R"({"name":"Dogs"})"));
  ASSERT_GT(category, 0);
  const auto pet =
      id_of(post_json(*http, "/pets", R"({"name":"Rex","categoryId":)" + std::to_string(category) + "}"));
  ASSERT_GT(pet, 0);
  const auto path = "/pets/" + std::to_string(pet);

  // An idle keep-alive connection to the leaving replica, as nginx and the
  // peers' forwarders keep them. A replica answers "Connection: close"
  // while connections wait for a worker (http::Server::closing), as they
  // may while its workers are still starting: then another is opened.
  std::unique_ptr<RawConnection> held;
  for (int attempt = 0; attempt < 20; ++attempt) {
    held = std::make_unique<RawConnection>(leaving.port(), std::chrono::seconds(30));
    ASSERT_TRUE(held->connected());
    ASSERT_TRUE(held->send(get(path, pets.api_key())));
    const auto first = held->next();
    ASSERT_EQ(first.status, 200) << first.head << first.body;
    if (first.header("Connection") != "close") {
      break;
    }
    held.reset();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_NE(held, nullptr) << "the replica closed every connection after its first response";
  // cpp-httplib looks for a stop once more after a response, before it
  // waits for the connection's next request: a stop that came first would
  // close it. Let the worker get to that wait.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));

  leaving.signal_stop();

  // The stopping replica ends the idle connection once it has answered
  // what it was handling, and exits. Before, the connection stayed open
  // for HTTP_KEEPALIVE_TIMEOUT_S (two minutes here), and the replica held
  // its partitions as long.
  EXPECT_TRUE(held->closed_by_server()) << "the idle connection still open after 30 s";
  EXPECT_TRUE(leaving.wait_exit(std::chrono::seconds(20))) << leaving.log_tail();

  // Every partition moves to the staying replica, which says so.
  bool handed_over = false;
  for (int i = 0; i < 600 && !handed_over; ++i) {
    hints = owner_hints(pets);
    handed_over = hints.size() == 6 &&
                  std::ranges::all_of(hints, [&](const auto& h) { return h.second == url_of(staying); });
    if (!handed_over) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  std::string owners;
  for (const auto& [partition, url] : hints) {
    owners.append(partition).append("=").append(url).append(" ");
  }
  EXPECT_TRUE(handed_over) << "owners after 60 s: " << owners << "\n" << leaving.log_tail();

  // The staying replica takes commands for the pet the other one wrote.
  auto staying_http = staying.client();
  const auto moved = put_json(*staying_http, path + "/status", R"({"status":"pending"})");
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->status, 200) << moved->body;
}

}  // namespace
}  // namespace petstore::testing
