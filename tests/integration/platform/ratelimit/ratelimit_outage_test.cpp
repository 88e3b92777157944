// The rate limiter when Redis is slow or down (docs/api.md, "When Redis is in
// trouble"): the gate fails closed within RATE_LIMIT_TIMEOUT_MS with 503
// rate_limiter_unavailable and Retry-After, never hangs, never lets a request
// through unchecked, and recovers by itself. This test runs its own Redis
// (with an append-only file, as production should) so it can stop it without
// disturbing the suite's shared one.
#include <gtest/gtest.h>

#include <signal.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <thread>

#include "redis/connection.h"
#include "support/http_json.h"
#include "support/own_redis.h"
#include "support/service_process.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

bool eventually_status(httplib::Client& c, int status, std::chrono::seconds timeout) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < give_up) {
    if (const auto r = c.Get("/categories"); r && r->status == status) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

TEST(RateLimiterOutage, FailsClosedFastAndRecoversWhenRedisStopsAndRestarts) {
  OwnRedis redis;
  PetsDeployment pets(3, {{"REDIS_PORT", std::to_string(redis.port())}, {"RATE_LIMIT_TIMEOUT_MS", "200"}});
  auto http = pets.replica(0).client();
  auto r = http->Get("/categories");
  ASSERT_EQ(r->status, 200);
  const auto remaining_before = std::stoll(r->get_header_value("X-RateLimit-Remaining"));

  // Traffic on all three replicas throughout: every answer is 200 or 503, never a
  // request admitted unchecked past the outage, never an error of another kind.
  std::atomic<bool> stop{false};
  std::map<int, int> statuses;
  std::mutex statuses_mutex;
  std::vector<std::thread> traffic;
  traffic.reserve(pets.size());
  for (size_t i = 0; i < pets.size(); ++i) {
    traffic.emplace_back([&, i] {
      auto c = pets.replica(i).client();
      c->set_read_timeout(std::chrono::seconds(5));
      while (!stop) {
        const auto got = c->Get("/categories");
        const std::lock_guard lock(statuses_mutex);
        ++statuses[got ? got->status : -1];
        if (got && got->status == 503) {
          EXPECT_TRUE(got->has_header("Retry-After"));
        }
      }
    });
  }

  // A hung Redis: the gate answers within its deadline instead of stalling.
  redis.freeze();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto started = std::chrono::steady_clock::now();
  r = http->Get("/categories");
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503);
  EXPECT_EQ(error_code(r), "rate_limiter_unavailable");
  EXPECT_EQ(r->get_header_value("Retry-After"), "1");
  EXPECT_LT(took, std::chrono::seconds(2));
  redis.thaw();
  EXPECT_TRUE(eventually_status(*http, 200, std::chrono::seconds(10)));

  // A stopped Redis: refused at once; after the restart the same key works and
  // its budget continues where it was (the counters survived in the AOF).
  redis.stop();
  r = http->Get("/categories");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503);
  EXPECT_EQ(error_code(r), "rate_limiter_unavailable");
  std::this_thread::sleep_for(std::chrono::seconds(1));
  redis.start();
  ASSERT_TRUE(eventually_status(*http, 200, std::chrono::seconds(10)));
  stop = true;
  for (auto& t : traffic) {
    t.join();
  }
  r = http->Get("/categories");
  ASSERT_EQ(r->status, 200);
  EXPECT_LT(std::stoll(r->get_header_value("X-RateLimit-Remaining")), remaining_before);

  for (const auto& [status, count] : statuses) {
    EXPECT_TRUE(status == 200 || status == 503) << count << " answers with status " << status;
  }
  EXPECT_GT(statuses[503], 0);
  EXPECT_GT(statuses[200], 0);
}

}  // namespace
}  // namespace petstore::testing
