// The limiter's script against the real Redis: exact quotas under
// concurrency, denied requests cost nothing, bans start, end and double,
// and the gate answers a banned key from memory until the ban's end.
#include <gtest/gtest.h>

#include <atomic>
#include <ctime>
#include <future>
#include <thread>

#include "apikeys/key_store.h"
#include "http/router.h"
#include "ratelimit/gate.h"
#include "ratelimit/limiter.h"
#include "redis/multiplexer.h"
#include "redis/pool.h"
#include "support/key_management.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

using Verdict = ratelimit::Counters::Verdict;

class RateLimit : public ::testing::Test {
 protected:
  redis::Multiplexer redis_{Stack::get().redis_endpoint()};
  std::string prefix_ = unique_name("rl");
};

TEST_F(RateLimit, ConcurrentClientsNeverGetMoreThanTheQuota) {
  ratelimit::Limiter limiter(redis_, prefix_, ratelimit::BanPolicy{1'000'000, 60, 60, 60, 60});
  const ratelimit::Limits limits{1'000'000, 50};
  std::atomic<int> admitted{0};
  std::vector<std::thread> clients;
  clients.reserve(16);
  for (int t = 0; t < 16; ++t) {
    clients.emplace_back([&] {
      for (int i = 0; i < 10; ++i) {
        admitted += limiter.check({"key-a", ""}, limits).verdict == Verdict::Admitted ? 1 : 0;
      }
    });
  }
  for (auto& c : clients) {
    c.join();
  }
  EXPECT_EQ(admitted.load(), 50);
}

TEST_F(RateLimit, DeniedRequestsConsumeNoQuotaAndTellWhenToComeBack) {
  ratelimit::Limiter limiter(redis_, prefix_, ratelimit::BanPolicy{1'000'000, 60, 60, 60, 60});
  const ratelimit::Limits limits{3, 100, 3600, 86400};  // an hour-long window: no rollover mid-test
  for (int i = 0; i < 3; ++i) {
    const auto d = limiter.check({"key-b", ""}, limits);
    ASSERT_EQ(d.verdict, Verdict::Admitted);
    EXPECT_EQ(d.remaining, 2 - i);
  }
  for (int i = 0; i < 5; ++i) {
    const auto d = limiter.check({"key-b", ""}, limits);
    EXPECT_EQ(d.verdict, Verdict::Denied);
    // Come back when the exhausted hour-long window resets, not before.
    const auto seconds_to_reset = d.reset_unix - std::time(nullptr);
    EXPECT_GE(d.retry_after, 1);
    EXPECT_LE(d.retry_after, 3600);
    EXPECT_NEAR(static_cast<double>(d.retry_after), static_cast<double>(seconds_to_reset), 2.0);
  }
  // The long window counted only the three admitted requests.
  const auto day = redis_command({"HGET", prefix_ + ":rl:{key-b}", "dc"});
  EXPECT_EQ(day.at(0), "3");
  // An address's counters expire with their long window.
  const auto ttl = redis_command({"PTTL", prefix_ + ":rl:{key-b}"});
  EXPECT_GT(std::stoll(ttl.at(0)), 0);
  EXPECT_LE(std::stoll(ttl.at(0)), 86'400'000);
}

TEST_F(RateLimit, AClientThatWaitsForRetryAfterIsAdmitted) {
  ratelimit::Limiter limiter(redis_, prefix_, ratelimit::BanPolicy{1'000'000, 60, 60, 60, 60});
  const ratelimit::Limits short_windows{2, 1000, 2, 3600};  // 2 requests per 2 s
  while (limiter.check({"key-c", ""}, short_windows).verdict == Verdict::Admitted) {
  }
  const auto denied = limiter.check({"key-c", ""}, short_windows);
  ASSERT_EQ(denied.verdict, Verdict::Denied);
  std::this_thread::sleep_for(std::chrono::seconds(denied.retry_after));
  EXPECT_EQ(limiter.check({"key-c", ""}, short_windows).verdict, Verdict::Admitted);
}

TEST_F(RateLimit, BansStartAfterRepeatedDenialsLiftOnTimeAndDouble) {
  ratelimit::Limiter limiter(redis_, prefix_, ratelimit::BanPolicy{3, 10, 1, 8, 600});
  const ratelimit::Limits one{1, 1000, 3600, 86400};
  ASSERT_EQ(limiter.check({"key-d", ""}, one).verdict, Verdict::Admitted);
  EXPECT_EQ(limiter.check({"key-d", ""}, one).verdict, Verdict::Denied);
  EXPECT_EQ(limiter.check({"key-d", ""}, one).verdict, Verdict::Denied);
  auto banned = limiter.check({"key-d", ""}, one);  // third denial
  ASSERT_EQ(banned.verdict, Verdict::Banned);
  EXPECT_EQ(banned.retry_after, 1);
  EXPECT_EQ(limiter.check({"key-d", ""}, one).verdict, Verdict::Banned);

  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_NE(limiter.check({"key-d", ""}, one).verdict, Verdict::Banned);  // lifted (still over quota)
  limiter.check({"key-d", ""}, one);
  banned = limiter.check({"key-d", ""}, one);
  ASSERT_EQ(banned.verdict, Verdict::Banned);
  EXPECT_EQ(banned.retry_after, 2) << "a repeat offence doubles the ban";
}

TEST_F(RateLimit, TheGateAnswersABannedKeyFromMemoryUntilTheBansEnd) {
  redis::Pool pool(Stack::get().redis_endpoint(), 4);
  KeyManagement management(pool, redis_, prefix_);
  auto& keys = management.store;
  const auto issued = keys.issue(apikeys::Plan::Enterprise, {1, 1000, 3600, 86400}, "");
  ratelimit::Limiter limiter(redis_, prefix_, ratelimit::BanPolicy{2, 60, 60, 600, 600});
  // A clock that moves a microsecond per look, as real time does between lookups.
  auto now = std::chrono::steady_clock::now();
  ratelimit::BanCache bans([&now] { return now += std::chrono::microseconds(1); });
  const apikeys::AdminToken admin(std::string("an-admin-token-for-this-test"));
  ratelimit::Gate gate(limiter, bans, {60, 1000, 60, 86400}, {2, 100, 60, 86400}, admin,
                       http::TrustedProxies::parse("127.0.0.0/8"));
  httplib::Request req;
  req.path = "/pets";
  req.method = "GET";
  req.headers.emplace("X-API-Key", issued.key);
  const auto send = [&] {
    httplib::Response res;
    gate.admit(req, res);
    return res;
  };
  EXPECT_EQ(send().status, -1);  // admitted: the route answers
  EXPECT_EQ(send().status, 429);
  auto res = send();  // the second denial starts a 60 s ban
  ASSERT_EQ(res.get_header_value("Retry-After"), "60");
  // A flood is answered from memory, and answering does not move the ban's end.
  for (int i = 0; i < 10'000; ++i) {
    ASSERT_EQ(send().status, 429);
  }
  now += std::chrono::seconds(30);
  EXPECT_EQ(send().get_header_value("Retry-After"), "30");
  now += std::chrono::seconds(29);
  EXPECT_EQ(send().get_header_value("Retry-After"), "1");
}

// A GET's handler runs while its key's check is at Redis (both in one round
// trip); the check's word decides what is sent. A refused request gets only
// the gate's answer, never what the handler read.
TEST_F(RateLimit, ADeferredCheckDecidesWhatAGetSendsAfterItsHandlerRead) {
  redis::Pool pool(Stack::get().redis_endpoint(), 2);
  KeyManagement management(pool, redis_, prefix_);
  auto& keys = management.store;
  const auto issued = keys.issue(apikeys::Plan::Enterprise, {1, 1000, 3600, 86400}, "");
  const auto revoked = keys.issue(apikeys::Plan::Enterprise, {100, 1000, 3600, 86400}, "");
  apikeys::KeyRecord gone;
  ASSERT_EQ(keys.revoke(revoked.record.id, gone), apikeys::KeyStore::Change::Done);
  ratelimit::Limiter limiter(redis_, prefix_, ratelimit::BanPolicy{});
  ratelimit::BanCache bans;
  const apikeys::AdminToken admin(std::string("an-admin-token-for-this-test"));
  ratelimit::Gate gate(limiter, bans, {60, 1000, 60, 86400}, {2, 100, 60, 86400}, admin,
                       http::TrustedProxies::parse("127.0.0.0/8"));
  const auto secret_key = prefix_ + ":secret";
  redis_.command({"SET", secret_key, "the-secret"});
  http::Router router;
  std::atomic<int> reads{0};
  router.add("GET", "/thing", [&](const httplib::Request&, httplib::Response& res, const http::PathParams&) {
    ++reads;
    res.status = 200;
    res.set_content(std::string(redis::as_string(*redis_.command({"GET", secret_key}))), "text/plain");
  });
  router.before([&gate](const httplib::Request& req, httplib::Response& res, bool may_defer) {
    return gate.start(req, res, may_defer);
  });
  const auto get = [&router](const std::string& key) {
    httplib::Request req;
    req.method = "GET";
    req.path = "/thing";
    req.remote_addr = "192.0.2.9";
    req.headers.emplace("X-API-Key", key);
    httplib::Response res;
    router.handle(req, res);
    return res;
  };
  const auto admitted = get(issued.key);
  EXPECT_EQ(admitted.status, 200);
  EXPECT_EQ(admitted.body, "the-secret");
  EXPECT_EQ(admitted.get_header_value("X-RateLimit-Remaining"), "0");
  const auto limited = get(issued.key);
  EXPECT_EQ(limited.status, 429);
  EXPECT_EQ(limited.body.find("the-secret"), std::string::npos) << limited.body;
  const auto refused = get(revoked.key);
  EXPECT_EQ(refused.status, 401);
  EXPECT_NE(refused.body.find("api_key_revoked"), std::string::npos) << refused.body;
  EXPECT_EQ(refused.body.find("the-secret"), std::string::npos);
  // The first check of an idle limiter is made alone (Limiter::answering);
  // the refused ones ran their handlers beside their checks.
  EXPECT_EQ(reads.load(), 3) << "each handler ran beside its check";
}

}  // namespace
}  // namespace petstore::testing

namespace petstore::testing {
namespace {

// Whoever fails the admin token check pays from a small budget per address,
// and is banned like any other abuser; the holder of the token never pays.
TEST_F(RateLimit, FailedAdminAuthenticationIsLimitedAndBanned) {
  ratelimit::Limiter limiter(redis_, prefix_, ratelimit::BanPolicy{2, 60, 60, 600, 600});
  ratelimit::BanCache bans;
  const apikeys::AdminToken admin(std::string("an-admin-token-for-this-test"));
  ratelimit::Gate gate(limiter, bans, {60, 1000, 60, 86400}, {3, 100, 60, 86400}, admin,
                       http::TrustedProxies::parse("127.0.0.0/8"));
  httplib::Request req;
  req.path = "/admin/keys";
  req.method = "GET";
  req.remote_addr = "192.0.2.7";
  req.headers.emplace("Authorization", "Bearer guess");
  const auto send = [&] {
    httplib::Response res;
    const bool answered = gate.admit(req, res);
    return answered ? res.status : 0;
  };
  EXPECT_EQ(send(), 0);  // let through: the route answers 403
  EXPECT_EQ(send(), 0);
  EXPECT_EQ(send(), 0);
  EXPECT_EQ(send(), 429);
  EXPECT_EQ(send(), 429);  // the second denial within the window starts a ban
  httplib::Response banned;
  gate.admit(req, banned);
  EXPECT_NE(banned.body.find("rate_limit_banned"), std::string::npos) << banned.body;
  // Another address is unaffected, and the token's holder is never limited.
  req.remote_addr = "192.0.2.8";
  EXPECT_EQ(send(), 0);
  req.remote_addr = "192.0.2.7";
  req.headers = {{"Authorization", "Bearer an-admin-token-for-this-test"}};
  for (int i = 0; i < 20; ++i) {
    ASSERT_EQ(send(), 0);
  }
}

}  // namespace
}  // namespace petstore::testing
