// The read model is disposable: wiped, it is rebuilt from the log, and ids
// are never reused.
#include <gtest/gtest.h>

#include <set>

#include "support/http_json.h"
#include "support/service_process.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

std::string listing(httplib::Client& http) {
  const auto r = http.Get("/pets?limit=100");
  return r && r->status == 200 ? r->body : "";
}

TEST(PetsRebuild, AWipedReadModelIsRebuiltFromTheLogAndIdsAreNotReused) {
  PetsDeployment d(1);
  auto http = d.replica(0).client();
  const auto category = id_of(post_json(*http, "/categories", R"({"name":"Dogs"})"));
  std::set<std::int64_t> ids = {category};
  for (int i = 0; i < 12; ++i) {
    const auto id = id_of(post_json(
        *http, "/pets",
        R"({"name":"p)" + std::to_string(i) + R"(","categoryId":)" + std::to_string(category) + "}"));
    ids.insert(id);
    if (i % 3 == 0) {
      put_json(*http, "/pets/" + std::to_string(id) + "/status", R"({"status":"sold"})");
    }
    if (i % 4 == 1) {
      http->Delete(("/pets/" + std::to_string(id)).c_str());
    }
  }
  const auto before = listing(*http);
  const auto category_before = http->Get(("/categories/" + std::to_string(category)).c_str())->body;
  ASSERT_FALSE(before.empty());

  d.replica(0).stop();
  redis_wipe(d.prefix() + ":");
  ASSERT_TRUE(redis_command({"KEYS", d.prefix() + ":*"}).empty());
  d.replica(0).restart();
  // API keys are operators' state, not events: the wipe took the test's key
  // with the read model (docs/api.md, "API keys and rate limits"), so the operator issues a new one.
  d.replica(0).use_api_key(issue_unlimited_key(*d.replica(0).client()));
  http = d.replica(0).client();

  std::string after;
  for (int i = 0; i < 100 && after != before; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    after = listing(*http);
  }
  EXPECT_EQ(after, before);
  EXPECT_EQ(http->Get(("/categories/" + std::to_string(category)).c_str())->body, category_before);

  // Deleting the category must still be refused: the rebuilt pet counts are right.
  EXPECT_EQ(http->Delete(("/categories/" + std::to_string(category)).c_str())->status, 409);

  // New ids come from the single writer's fold of the log, which the wipe
  // did not touch: none is one the log has had.
  for (int i = 0; i < 8; ++i) {
    const auto fresh =
        id_of(post_json(*http, "/pets", R"({"name":"new","categoryId":)" + std::to_string(category) + "}"));
    EXPECT_TRUE(ids.insert(fresh).second) << fresh << " was reused";
  }
}

}  // namespace
}  // namespace petstore::testing
