// API keys and the shared rate limiter through the entry point, with three
// replicas of every service against the real Redis (docs/api.md, "API keys and
// rate limits"): one budget across all of them, headers on every answer,
// Retry-After that admits, bans that start, lift and double, revocation and
// re-planning that act at once, and the admin API's guard.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>

#include "apikeys/api_key.h"
#include "events/envelope.h"
#include "events/kafka_binding.h"
#include "support/event_schema.h"
#include "support/http_json.h"
#include "support/stack.h"
#include "support/store_deployment.h"

namespace petstore::testing {
namespace {

// Paths of all three services, so one key's requests spread over every
// service and, through nginx, over every replica.
constexpr std::array<const char*, 4> kPaths = {"/store/inventory", "/pets?limit=1", "/store/orders?limit=1",
                                               "/categories?limit=1"};

httplib::Headers admin_headers() {
  return {{"Authorization", std::string("Bearer ") + kAdminToken}};
}

std::int64_t header_int(const httplib::Result& r, const char* name) {
  return std::stoll(r->get_header_value(name));
}

class ApiKeysTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // Bans as an operator would shorten them: 3 ignored 429s within 10 s ban
    // for 2 s, then 4 s, up to 8 s.
    store_ = std::make_unique<StoreDeployment>(3, std::map<std::string, std::string>{
                                                      {"RATE_LIMIT_BAN_AFTER", "3"},
                                                      {"RATE_LIMIT_BAN_WINDOW_S", "10"},
                                                      {"RATE_LIMIT_BAN_FIRST_S", "2"},
                                                      {"RATE_LIMIT_BAN_MAX_S", "8"},
                                                  });
  }
  static void TearDownTestSuite() { store_.reset(); }

  void SetUp() override {
    http_ = store_->client();
    http_->set_default_headers({});
  }

  // A key for an enterprise plan with these limits, issued like an operator would.
  std::string enterprise_key(std::int64_t per_minute, std::int64_t per_day, std::int64_t minute_window_s,
                             std::int64_t day_window_s) {
    return issue_api_key(*http_, R"({"plan":"enterprise","limits":{"perMinute":)" +
                                     std::to_string(per_minute) + R"(,"perDay":)" + std::to_string(per_day) +
                                     R"(,"minuteWindowSeconds":)" + std::to_string(minute_window_s) +
                                     R"(,"dayWindowSeconds":)" + std::to_string(day_window_s) + "}}");
  }

  httplib::Result get(const std::string& key, const std::string& path = "/store/inventory") {
    return http_->Get(path, {{"X-API-Key", key}});
  }

  static std::unique_ptr<StoreDeployment> store_;
  std::unique_ptr<httplib::Client> http_;
};

std::unique_ptr<StoreDeployment> ApiKeysTest::store_;

TEST_F(ApiKeysTest, RequestsWithoutAUsableKeyAre401WithTheAddressBudget) {
  auto r = http_->Get("/pets");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);
  EXPECT_EQ(error_code(r), "api_key_missing");
  // Unauthenticated requests count against the caller's address on the Free plan.
  EXPECT_EQ(r->get_header_value("X-RateLimit-Limit"), "60");
  EXPECT_TRUE(r->has_header("X-RateLimit-Remaining"));
  EXPECT_TRUE(r->has_header("X-RateLimit-Reset"));
  EXPECT_TRUE(r->has_header("RateLimit-Policy"));

  r = get("psk_00000000000000000000000000000000");
  EXPECT_EQ(r->status, 401);
  EXPECT_EQ(error_code(r), "api_key_invalid");
  r = get("not-a-key");
  EXPECT_EQ(r->status, 401);
  EXPECT_EQ(error_code(r), "api_key_invalid");

  // Health is not limited and needs no key.
  r = http_->Get("/healthz");
  EXPECT_EQ(r->status, 200);
  EXPECT_FALSE(r->has_header("X-RateLimit-Limit"));
}

TEST_F(ApiKeysTest, EveryAnswerCarriesTheBudgetIncluding404) {
  const auto key = issue_api_key(*http_, R"({"plan":"pro"})");
  auto r = get(key, "/pets/999999999");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_EQ(r->get_header_value("X-RateLimit-Limit"), "300");
  EXPECT_EQ(r->get_header_value("X-RateLimit-Remaining"), "299");
  EXPECT_EQ(r->get_header_value("RateLimit-Policy"), "\"minute\";q=300;w=60, \"day\";q=10000;w=86400");
  EXPECT_TRUE(r->get_header_value("RateLimit").starts_with("\"minute\";r=299;t="));
  r = get(key, "/no/such/route");
  EXPECT_EQ(r->status, 404);
  EXPECT_EQ(error_code(r), "route_not_found");
  EXPECT_EQ(r->get_header_value("X-RateLimit-Remaining"), "298");
  const auto reset = header_int(r, "X-RateLimit-Reset");
  const auto now =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  EXPECT_GT(reset, now - 1);
  EXPECT_LE(reset, now + 61);
}

TEST_F(ApiKeysTest, ManyClientsOnOneKeyNeverGetMoreThanTheQuota) {
  // An hour-long short window, so the run almost never straddles two; if it
  // does, each window is held to the quota on its own.
  const auto key = enterprise_key(25, 1000, 3600, 86400);
  std::mutex mutex;
  std::map<std::string, int> admitted_per_window;  // by X-RateLimit-Reset of the short window
  int limited = 0;
  int other = 0;
  std::vector<std::thread> clients;
  clients.reserve(12);
  for (int t = 0; t < 12; ++t) {
    clients.emplace_back([&, t] {
      auto c = store_->client();
      c->set_default_headers({{"X-API-Key", key}});
      for (int i = 0; i < 8; ++i) {
        const auto r = c->Get(kPaths[static_cast<size_t>(t + i) % kPaths.size()]);
        const std::lock_guard lock(mutex);
        if (r && r->status == 200) {
          ++admitted_per_window[r->get_header_value("X-RateLimit-Reset")];
        } else if (r && r->status == 429) {
          ++limited;
        } else {
          ++other;
        }
      }
    });
  }
  for (auto& c : clients) {
    c.join();
  }
  int admitted = 0;
  for (const auto& [window, count] : admitted_per_window) {
    EXPECT_LE(count, 25) << "window ending " << window;
    admitted += count;
  }
  if (admitted_per_window.size() == 1) {
    EXPECT_EQ(admitted, 25);
  }
  EXPECT_EQ(limited, 12 * 8 - admitted);
  EXPECT_EQ(other, 0);
}

TEST_F(ApiKeysTest, HeadersAgreeAcrossEveryReplica) {
  const auto key = enterprise_key(1000, 5000, 3600, 86400);
  std::int64_t expected_remaining = 999;
  std::set<std::string> resets;
  for (const auto& service : StoreDeployment::services()) {
    for (size_t i = 0; i < 3; ++i) {
      auto c = store_->replica(service, i).client();
      const auto r = c->Get("/nowhere", {{"X-API-Key", key}});
      ASSERT_TRUE(r);
      EXPECT_EQ(r->status, 404);
      EXPECT_EQ(r->get_header_value("X-RateLimit-Limit"), "1000");
      EXPECT_EQ(header_int(r, "X-RateLimit-Remaining"), expected_remaining--) << service << " " << i;
      resets.insert(r->get_header_value("X-RateLimit-Reset"));
    }
  }
  EXPECT_EQ(resets.size(), 1U);  // one clock (Redis'), one window
}

TEST_F(ApiKeysTest, AClientThatWaitsForRetryAfterIsAdmitted) {
  const auto key = enterprise_key(3, 1000, 2, 86400);
  int used = 0;
  auto r = get(key);
  while (r && r->status == 200) {
    ++used;
    ASSERT_LE(used, 6);  // at most two 2-second windows' worth
    r = get(key);
  }
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 429);
  EXPECT_EQ(error_code(r), "rate_limited");
  EXPECT_EQ(r->get_header_value("X-RateLimit-Remaining"), "0");
  const auto wait = header_int(r, "Retry-After");
  EXPECT_GE(wait, 1);
  EXPECT_LE(wait, 2);
  std::this_thread::sleep_for(std::chrono::seconds(wait));
  r = get(key);
  EXPECT_EQ(r->status, 200);
}

TEST_F(ApiKeysTest, IgnoringRetryAfterBansTheKeyAndEachBanIsLonger) {
  const auto key = enterprise_key(1, 1000, 3600, 86400);
  ASSERT_EQ(get(key)->status, 200);
  // Three ignored 429s start a 2-second ban.
  EXPECT_EQ(error_code(get(key)), "rate_limited");
  EXPECT_EQ(error_code(get(key)), "rate_limited");
  auto r = get(key);
  EXPECT_EQ(error_code(r), "rate_limit_banned");
  EXPECT_EQ(header_int(r, "Retry-After"), 2);
  // Every replica refuses the banned key, whichever nginx picks.
  for (int i = 0; i < 6; ++i) {
    r = get(key, kPaths[static_cast<size_t>(i) % kPaths.size()]);
    EXPECT_EQ(error_code(r), "rate_limit_banned");
    EXPECT_EQ(r->get_header_value("X-RateLimit-Remaining"), "0");
    EXPECT_LE(header_int(r, "Retry-After"), 2);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  // Lifted on time: the window is still spent, so 429 rate_limited, not banned.
  EXPECT_EQ(error_code(get(key)), "rate_limited");
  EXPECT_EQ(error_code(get(key)), "rate_limited");
  r = get(key);
  EXPECT_EQ(error_code(r), "rate_limit_banned");
  EXPECT_EQ(header_int(r, "Retry-After"), 4);  // the repeat offence doubles the ban
}

TEST_F(ApiKeysTest, RePlanningAndRevocationActAtOnceOnEveryReplica) {
  auto r =
      http_->Post("/admin/keys", admin_headers(), R"({"plan":"free","name":"acme"})", "application/json");
  ASSERT_EQ(r->status, 201);
  const auto issued = parse(r->body);
  const std::string key = issued["key"].GetString();
  const std::string id = issued["id"].GetString();
  EXPECT_EQ(r->get_header_value("Location"), "/admin/keys/" + id);
  EXPECT_EQ(get(key)->get_header_value("X-RateLimit-Limit"), "60");

  r = http_->Patch("/admin/keys/" + id, admin_headers(), R"({"plan":"business"})", "application/json");
  ASSERT_EQ(r->status, 200);
  EXPECT_STREQ(parse(r->body)["plan"].GetString(), "business");
  for (const auto& service : StoreDeployment::services()) {
    for (size_t i = 0; i < 3; ++i) {
      const auto got = store_->replica(service, i).client()->Get("/nowhere", {{"X-API-Key", key}});
      EXPECT_EQ(got->get_header_value("X-RateLimit-Limit"), "1000") << service << " " << i;
    }
  }

  ASSERT_EQ(http_->Delete("/admin/keys/" + id, admin_headers())->status, 204);
  for (const auto& service : StoreDeployment::services()) {
    for (size_t i = 0; i < 3; ++i) {
      const auto got = store_->replica(service, i).client()->Get("/pets", {{"X-API-Key", key}});
      EXPECT_EQ(got->status, 401);
      EXPECT_EQ(error_code(got), "api_key_revoked") << service << " " << i;
    }
  }
  r = http_->Patch("/admin/keys/" + id, admin_headers(), R"({"plan":"pro"})", "application/json");
  EXPECT_EQ(r->status, 409);
  EXPECT_EQ(error_code(r), "api_key_revoked");
  r = http_->Get("/admin/keys/" + id, admin_headers());
  ASSERT_EQ(r->status, 200);
  EXPECT_TRUE(parse(r->body)["revoked"].GetBool());
}

TEST_F(ApiKeysTest, KeysAreStoredOnlyAsHashesAndShownOnce) {
  auto r = http_->Post("/admin/keys", admin_headers(), R"({"plan":"pro"})", "application/json");
  ASSERT_EQ(r->status, 201);
  const std::string key = parse(r->body)["key"].GetString();
  const std::string id = parse(r->body)["id"].GetString();
  for (const auto& value : redis_command({"HGETALL", store_->prefix() + ":apikey:{" + id + "}"})) {
    EXPECT_EQ(value.find(key.substr(4)), std::string::npos);
  }
  r = http_->Get("/admin/keys", admin_headers());
  ASSERT_EQ(r->status, 200);
  EXPECT_EQ(r->body.find(key), std::string::npos);
  EXPECT_NE(r->body.find(id), std::string::npos);
}

// Key management is events (docs/events.md): each admin command appends
// one to the keys topic, with the key's digest and never the key; a second
// revocation appends nothing; the key's history serves the same events.
TEST_F(ApiKeysTest, KeyManagementIsOnTheLogAndInTheKeysHistory) {
  auto r =
      http_->Post("/admin/keys", admin_headers(), R"({"plan":"pro","name":"logged"})", "application/json");
  ASSERT_EQ(r->status, 201);
  const std::string key = parse(r->body)["key"].GetString();
  const std::string id = parse(r->body)["id"].GetString();
  ASSERT_EQ(http_
                ->Patch("/admin/keys/" + id, admin_headers(),
                        R"({"plan":"enterprise","limits":{"perMinute":7,"perDay":70}})", "application/json")
                ->status,
            200);
  ASSERT_EQ(http_->Delete("/admin/keys/" + id, admin_headers())->status, 204);
  ASSERT_EQ(http_->Delete("/admin/keys/" + id, admin_headers())->status, 204);

  std::vector<std::string> types;
  for (const auto& m : read_topic(store_->topic("apikeys"))) {
    const auto e = events::from_message(m);
    if (e.subject != id) {
      continue;
    }
    EXPECT_EQ(m.key, id);
    EXPECT_EQ(e.version, static_cast<std::int64_t>(types.size()) + 1);
    EXPECT_EQ(m.value.find(key.substr(4)), std::string::npos) << m.value;
    EXPECT_TRUE(matches_published_schema(e.type, e.data)) << e.data;
    types.push_back(e.type);
    if (e.type == "io.petstore.apikey.issued") {
      EXPECT_EQ(std::string(parse(m.value)["digest"].GetString()), apikeys::identify(key)->digest);
    }
  }
  EXPECT_EQ(types, (std::vector<std::string>{"io.petstore.apikey.issued", "io.petstore.apikey.replanned",
                                             "io.petstore.apikey.revoked"}));

  r = http_->Get("/admin/keys/" + id + "/history?limit=2", admin_headers());
  ASSERT_EQ(r->status, 200) << r->body;
  auto page = parse(r->body);
  ASSERT_EQ(page.Size(), 2U);
  EXPECT_STREQ(page[0]["type"].GetString(), "io.petstore.apikey.issued");
  EXPECT_STREQ(page[0]["subject"].GetString(), id.c_str());
  EXPECT_EQ(page[1]["data"]["perMinute"].GetInt64(), 7);
  ASSERT_TRUE(r->has_header("Link"));
  r = http_->Get("/admin/keys/" + id + "/history?limit=2&cursor=2", admin_headers());
  ASSERT_EQ(r->status, 200) << r->body;
  page = parse(r->body);
  ASSERT_EQ(page.Size(), 1U);
  EXPECT_STREQ(page[0]["type"].GetString(), "io.petstore.apikey.revoked");
  EXPECT_EQ(error_code(http_->Get("/admin/keys/0000000000000000/history", admin_headers())),
            "api_key_not_found");
  EXPECT_EQ(http_->Get("/admin/keys/" + id + "/history")->status, 401);
}

// Every replica of every service takes key commands, yet one writer
// appends them: the keys topic's writer is one group across the services,
// and a replica that does not own the key's partition forwards the command
// to the one that does. Re-plans sent at once to every replica directly
// (not through nginx) all succeed, and the log holds each once, in one
// unbroken version sequence, all from the owner's service.
TEST_F(ApiKeysTest, KeyCommandsAtEveryReplicaOfEveryServiceAreAppendedByOneWriter) {
  auto r =
      http_->Post("/admin/keys", admin_headers(), R"({"plan":"pro","name":"shared"})", "application/json");
  ASSERT_EQ(r->status, 201) << r->body;
  const std::string id = parse(r->body)["id"].GetString();

  std::vector<ServiceProcess*> replicas;
  for (const auto& service : StoreDeployment::services()) {
    for (size_t i = 0; i < 3; ++i) {
      replicas.push_back(&store_->replica(service, i));
    }
  }
  constexpr int kRounds = 3;
  std::mutex mutex;
  std::vector<std::string> failures;
  std::vector<std::thread> threads;
  threads.reserve(replicas.size());
  for (size_t n = 0; n < replicas.size(); ++n) {
    threads.emplace_back([&, n] {
      auto client = replicas[n]->client();
      client->set_read_timeout(std::chrono::seconds(20));
      for (int round = 0; round < kRounds; ++round) {
        const auto per_minute = std::to_string(1000 + n * kRounds + static_cast<size_t>(round));
        const auto answer = client->Patch(
            "/admin/keys/" + id, admin_headers(),
            R"({"plan":"enterprise","limits":{"perMinute":)" + per_minute + R"(,"perDay":100000}})",
            "application/json");
        if (!answer || answer->status != 200) {
          const std::lock_guard lock(mutex);
          failures.push_back(answer ? std::to_string(answer->status) + " " + answer->body : "no answer");
        }
      }
    });
  }
  for (auto& t : threads) {
    t.join();
  }
  EXPECT_TRUE(failures.empty()) << failures.size() << " failed, the first: " << failures.front();

  std::vector<std::int64_t> versions;
  std::set<std::string> sources;
  for (const auto& m : read_topic(store_->topic("apikeys"))) {
    const auto e = events::from_message(m);
    if (e.subject == id) {
      versions.push_back(e.version);
      sources.insert(e.source);
    }
  }
  std::vector<std::int64_t> expected(replicas.size() * kRounds + 1);
  std::iota(expected.begin(), expected.end(), 1);
  EXPECT_EQ(versions, expected) << "each command appended once, in order";
  EXPECT_EQ(sources.size(), 1U) << "one owner wrote every event";
}

TEST_F(ApiKeysTest, TheAdminApiNeedsTheTokenAndLeaksNothingWithoutIt) {
  const auto key = issue_api_key(*http_, R"({"plan":"free"})");
  const auto listed = parse(http_->Get("/admin/keys", admin_headers())->body);
  const std::string id = listed.GetArray()[0]["id"].GetString();
  auto r = http_->Get("/admin/keys");
  EXPECT_EQ(r->status, 401);
  EXPECT_EQ(error_code(r), "admin_token_missing");
  // A wrong token gets the same 403 for a key that exists and one that does not.
  const httplib::Headers wrong = {{"Authorization", "Bearer not-the-token"}};
  const auto existing = http_->Get("/admin/keys/" + id, wrong);
  const auto missing = http_->Get("/admin/keys/0123456789abcdef", wrong);
  EXPECT_EQ(existing->status, 403);
  EXPECT_EQ(missing->status, 403);
  EXPECT_EQ(existing->body, missing->body);
  EXPECT_EQ(http_->Delete("/admin/keys/" + id, wrong)->status, 403);
  // A customer's API key is not an admin token.
  EXPECT_EQ(http_->Get("/admin/keys", {{"Authorization", "Bearer " + key}})->status, 403);
  // With the token: clear errors for bad input and unknown keys.
  r = http_->Post("/admin/keys", admin_headers(), R"({"plan":"platinum"})", "application/json");
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(error_code(r), "invalid_value");
  r = http_->Post("/admin/keys", admin_headers(), R"({"plan":"enterprise"})", "application/json");
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(error_code(r), "missing_field");
  r = http_->Post("/admin/keys", admin_headers(),
                  R"({"plan":"enterprise","limits":{"perMinute":10,"perDay":5}})", "application/json");
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(error_code(r), "invalid_value");
  r = http_->Post("/admin/keys", admin_headers(), R"({"plan":"pro","limits":{"perMinute":10,"perDay":50}})",
                  "application/json");
  EXPECT_EQ(r->status, 400);
  r = http_->Get("/admin/keys/0123456789abcdef", admin_headers());
  EXPECT_EQ(r->status, 404);
  EXPECT_EQ(error_code(r), "api_key_not_found");
}

// X-Forwarded-For names the client only when a trusted proxy sent it. A
// replica that trusts nobody on loopback charges every keyless request from
// here to one address, however the header changes; the deployment's
// replicas trust the entry point (loopback, the default), so there each
// forwarded address has its own budget.
TEST_F(ApiKeysTest, ForwardedForIsBelievedOnlyFromTrustedProxies) {
  PetsDeployment untrusting(1, {{"TRUSTED_PROXIES", "192.0.2.1/32"}});
  // Plain clients: no API key, so each request counts against an address.
  auto direct = std::make_unique<httplib::Client>("127.0.0.1", untrusting.replica(0).port());
  int limited = 0;
  for (int i = 0; i < 61; ++i) {
    const auto r = direct->Get("/pets", {{"X-Forwarded-For", "198.51.100." + std::to_string(i)}});
    ASSERT_TRUE(r);
    limited += r->status == 429 ? 1 : 0;
  }
  EXPECT_GE(limited, 1) << "a spoofed X-Forwarded-For bought a fresh budget";

  auto trusting = std::make_unique<httplib::Client>("127.0.0.1", store_->replica("pets", 0).port());
  for (int i = 0; i < 61; ++i) {
    const auto r = trusting->Get("/pets", {{"X-Forwarded-For", "203.0.113." + std::to_string(i)}});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 401) << "request " << i;
    EXPECT_EQ(r->get_header_value("X-RateLimit-Remaining"), "59") << "each address has its own budget";
  }
}

// Without PETSTORE_ADMIN_TOKEN a replica serves everything but the admin API.
TEST(AdminApi, WithoutATokenTheAdminApiIsDisabled) {
  auto env = deployment_env(unique_name("noadmin"), {});
  env.erase("PETSTORE_ADMIN_TOKEN");
  ServiceProcess pets(PETS_BINARY, env);
  pets.wait_ready();
  const auto r = pets.client()->Get("/admin/keys", {{"Authorization", std::string("Bearer ") + kAdminToken}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 403);
  EXPECT_EQ(error_code(r), "admin_api_disabled");
}

}  // namespace
}  // namespace petstore::testing
