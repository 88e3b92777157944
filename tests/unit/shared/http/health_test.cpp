#include "http/health.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace petstore::http {
namespace {

httplib::Response get(const Router& router, const char* path) {
  httplib::Request req;
  req.method = "GET";
  req.path = path;
  httplib::Response res;
  router.handle(req, res);
  return res;
}

// A flood of health checks costs the dependencies one check per period.
TEST(Health, ChecksRunAtMostOncePerPeriodWhateverTheTraffic) {
  std::atomic<int> pings{0};
  std::atomic<bool> up{true};
  Router router;
  add_health_route(router,
                   {{"redis",
                     [&] {
                       ++pings;
                       return up.load();
                     }}},
                   std::chrono::milliseconds(200));
  const auto ask = [&router] { return get(router, "/healthz").status; };
  std::vector<std::thread> callers;
  callers.reserve(4);
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      for (int i = 0; i < 250; ++i) {
        EXPECT_EQ(ask(), 200);
      }
    });
  }
  for (auto& c : callers) {
    c.join();
  }
  EXPECT_LE(pings.load(), 3);  // 1,000 asks within well under a second
  up = false;
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  EXPECT_EQ(ask(), 503);  // the next period sees the outage
}

// /readyz: 503 with Retry-After while the read model is not ready, 200 once
// it is; the body says how far a rebuild has come either way. /healthz
// (liveness) does not depend on the read model.
TEST(Health, ReadinessFollowsTheReadModelAndLivenessDoesNot) {
  std::atomic<bool> ready{false};
  Router router;
  add_health_routes(
      router, {{"redis", [] { return true; }}},
      {[&] { return ready.load(); },
       [&] { return ready ? std::string(R"({"state":"ready"})") : std::string(R"({"state":"rebuilding"})"); },
       {}});
  const auto ask = [&router](const char* path) { return get(router, path); };
  auto r = ask("/readyz");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.get_header_value("Retry-After"), "1");
  EXPECT_EQ(r.body, R"({"status":"not_ready","checks":{"redis":"ok"},"readModel":{"state":"rebuilding"}})");
  EXPECT_EQ(ask("/healthz").status, 200);
  ready = true;
  r = ask("/readyz");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, R"({"status":"ready","checks":{"redis":"ok"},"readModel":{"state":"ready"}})");
}

// A replica whose single writer does not hold its share of the topic yet
// (joining, or a rebalance) is not ready, and /readyz says which writer.
TEST(Health, ReadinessWaitsForEveryWriterToSettle) {
  std::atomic<bool> settled{false};
  Router router;
  add_health_routes(router, {{"redis", [] { return true; }}},
                    {[] { return true; },
                     [] { return std::string(R"({"state":"ready"})"); },
                     {{"petstore.pets.v1", [&] { return settled.load(); }}}});
  const auto ask = [&router] { return get(router, "/readyz"); };
  auto r = ask();
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.body, R"({"status":"not_ready","checks":{"redis":"ok"},"readModel":{"state":"ready"},)"
                    R"("writers":{"petstore.pets.v1":"moving"}})");
  settled = true;
  r = ask();
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, R"({"status":"ready","checks":{"redis":"ok"},"readModel":{"state":"ready"},)"
                    R"("writers":{"petstore.pets.v1":"settled"}})");
}

}  // namespace
}  // namespace petstore::http
