// The pets API through real HTTP, against the test broker and Redis.
#include <gtest/gtest.h>

#include <set>

#include "events/envelope.h"
#include "events/kafka_binding.h"
#include "pets/domain/events.h"
#include "support/http_json.h"
#include "support/service_process.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

class PetsApi : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { deployment_ = std::make_unique<PetsDeployment>(1); }
  static void TearDownTestSuite() { deployment_.reset(); }

  void SetUp() override { http_ = deployment_->replica(0).client(); }

  std::int64_t new_category(const std::string& name = "Dogs") {
    const auto r = post_json(*http_, "/categories", R"({"name":")" + name + R"("})");
    EXPECT_EQ(r->status, 201) << r->body;
    return id_of(r);
  }

  std::int64_t new_pet(std::int64_t category, const std::string& name = "Rex",
                       const std::string& status = "") {
    std::string body = R"({"name":")" + name + R"(","categoryId":)" + std::to_string(category);
    body += status.empty() ? "}" : R"(,"status":")" + status + R"("})";
    const auto r = post_json(*http_, "/pets", body);
    EXPECT_EQ(r->status, 201) << r->body;
    return id_of(r);
  }

  static std::unique_ptr<PetsDeployment> deployment_;
  std::unique_ptr<httplib::Client> http_;
};

std::unique_ptr<PetsDeployment> PetsApi::deployment_;

TEST_F(PetsApi, CategoryLifecycle) {
  auto r = post_json(*http_, "/categories", R"({"name":"Cats","description":"Aloof"})");
  ASSERT_EQ(r->status, 201) << r->body;
  const auto id = id_of(r);
  EXPECT_EQ(r->get_header_value("Location"), "/categories/" + std::to_string(id));
  EXPECT_EQ(r->get_header_value("ETag"), "\"1\"");

  r = http_->Get(("/categories/" + std::to_string(id)).c_str());
  ASSERT_EQ(r->status, 200);
  const auto got = parse(r->body);
  EXPECT_STREQ(got["name"].GetString(), "Cats");
  EXPECT_STREQ(got["description"].GetString(), "Aloof");

  r = put_json(*http_, "/categories/" + std::to_string(id), R"({"name":"Felines"})");
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->get_header_value("ETag"), "\"2\"");
  EXPECT_FALSE(parse(r->body).HasMember("description"));

  r = http_->Get("/categories?limit=100");
  ASSERT_EQ(r->status, 200);
  bool listed = false;
  const auto categories = parse(r->body);
  for (const auto& c : categories.GetArray()) {
    listed = listed || c["id"].GetInt64() == id;
  }
  EXPECT_TRUE(listed);

  r = http_->Delete(("/categories/" + std::to_string(id)).c_str());
  EXPECT_EQ(r->status, 204);
  r = http_->Get(("/categories/" + std::to_string(id)).c_str());
  EXPECT_EQ(r->status, 404);
  EXPECT_EQ(error_code(r), "category_not_found");
}

TEST_F(PetsApi, PetLifecycleAndStatusMachine) {
  const auto cat = new_category();
  const auto id = new_pet(cat, "Rex");
  const auto path = "/pets/" + std::to_string(id);

  auto r = http_->Get((path + "/profile").c_str());
  ASSERT_EQ(r->status, 200);
  auto body = parse(r->body);
  EXPECT_STREQ(body["status"].GetString(), "available");
  EXPECT_EQ(body["version"].GetInt64(), 1);
  EXPECT_EQ(body["categoryId"].GetInt64(), cat);

  r = put_json(*http_, path + "/status", R"({"status":"pending"})");
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->get_header_value("ETag"), "\"2\"");
  r = put_json(*http_, path + "/status", R"({"status":"pending"})");  // no change, no event
  EXPECT_EQ(r->get_header_value("ETag"), "\"2\"");
  r = put_json(*http_, path + "/status", R"({"status":"sold"})");
  ASSERT_EQ(r->status, 200);
  r = put_json(*http_, path + "/status", R"({"status":"available"})");
  EXPECT_EQ(r->status, 409);
  EXPECT_EQ(error_code(r), "illegal_status_transition");
  r = put_json(*http_, path,
               R"({"name":"Rex","categoryId":)" + std::to_string(cat) + R"(,"status":"pending"})");
  EXPECT_EQ(error_code(r), "illegal_status_transition");

  r = put_json(
      *http_, path,
      R"({"id":)" + std::to_string(id) + R"(,"name":"Max","categoryId":)" + std::to_string(cat) + "}");
  ASSERT_EQ(r->status, 200) << r->body;
  body = parse(r->body);
  EXPECT_STREQ(body["name"].GetString(), "Max");
  EXPECT_STREQ(body["status"].GetString(), "sold");

  r = http_->Delete(path.c_str());
  EXPECT_EQ(r->status, 204);
  r = http_->Get(path.c_str());
  EXPECT_EQ(error_code(r), "pet_not_found");
  r = http_->Delete(path.c_str());
  EXPECT_EQ(error_code(r), "pet_not_found");
}

TEST_F(PetsApi, DeprecatedGetCarriesDeprecationSunsetAndSuccessor) {
  const auto id = new_pet(new_category());
  const auto r = http_->Get(("/pets/" + std::to_string(id)).c_str());
  ASSERT_EQ(r->status, 200);
  const auto deprecation = r->get_header_value("Deprecation");
  ASSERT_EQ(deprecation.front(), '@');
  const auto since = std::stoll(deprecation.substr(1));
  const auto sunset = r->get_header_value("Sunset");
  std::tm tm{};
  ASSERT_NE(strptime(sunset.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm), nullptr) << sunset;
  EXPECT_GE(timegm(&tm), since) << "Sunset must not be earlier than Deprecation";
  const auto successor = "/pets/" + std::to_string(id) + "/profile";
  EXPECT_EQ(r->get_header_value("Link"), "<" + successor + ">; rel=\"successor-version\"");
  EXPECT_EQ(http_->Get(successor.c_str())->status, 200);
  EXPECT_EQ(http_->Get(successor.c_str())->get_header_value("Deprecation"), "");
}

TEST_F(PetsApi, ListFiltersAndCursorPagination) {
  const auto cat = new_category();
  std::set<std::int64_t> created;
  for (int i = 0; i < 5; ++i) {
    created.insert(new_pet(cat, "p" + std::to_string(i), i < 2 ? "pending" : "available"));
  }
  std::set<std::int64_t> seen;
  std::string next = "/pets?categoryId=" + std::to_string(cat) + "&limit=2";
  int pages = 0;
  while (!next.empty()) {
    const auto r = http_->Get(next.c_str());
    ASSERT_EQ(r->status, 200) << r->body;
    const auto items = parse(r->body);
    ASSERT_TRUE(items.IsArray());
    EXPECT_LE(items.Size(), 2U);
    for (const auto& p : items.GetArray()) {
      EXPECT_TRUE(seen.insert(p["id"].GetInt64()).second) << "listed twice";
    }
    next.clear();
    const auto link = r->get_header_value("Link");
    if (!link.empty()) {
      EXPECT_NE(link.find("rel=\"next\""), std::string::npos);
      next = link.substr(1, link.find('>') - 1);
      EXPECT_NE(next.find("categoryId=" + std::to_string(cat)), std::string::npos);
    }
    ++pages;
  }
  EXPECT_EQ(seen, created);
  EXPECT_EQ(pages, 3);

  const auto r = http_->Get(("/pets?status=pending&categoryId=" + std::to_string(cat)).c_str());
  ASSERT_EQ(r->status, 200);
  const auto pending = parse(r->body);
  EXPECT_EQ(pending.Size(), 2U);
  for (const auto& p : pending.GetArray()) {
    EXPECT_STREQ(p["status"].GetString(), "pending");
  }
}

TEST_F(PetsApi, BadInputGetsAClearErrorAndWritesNothing) {
  const auto cat = std::to_string(new_category());
  struct Case {
    std::string method, path, body, content_type;
    int status;
    std::string code;
  };
  const std::vector<Case> cases = {
      {"POST", "/pets", "{\"name\":", "application/json", 400, "malformed_json"},
      {"POST", "/pets", "[]", "application/json", 400, "malformed_json"},
      {"POST", "/pets", "", "application/json", 400, "malformed_json"},
      {"POST", "/pets", R"({"name":5,"categoryId":)" + cat + "}", "application/json", 400, "invalid_type"},
      {"POST", "/pets", R"({"name":"x","categoryId":"1"})", "application/json", 400, "invalid_type"},
      {"POST", "/pets", R"({"name":"x","categoryId":1.5})", "application/json", 400, "invalid_type"},
      {"POST", "/pets", R"({"categoryId":)" + cat + "}", "application/json", 400, "missing_field"},
      {"POST", "/pets", R"({"name":"x"})", "application/json", 400, "missing_field"},
      {"POST", "/pets", R"({"name":"x","categoryId":)" + cat + R"(,"status":"lost"})", "application/json",
       400, "invalid_value"},
      {"POST", "/pets", R"({"name":"x","categoryId":99999999999999999999})", "application/json", 400,
       "invalid_value"},
      {"POST", "/pets", R"({"name":"x","categoryId":-3})", "application/json", 400, "invalid_value"},
      {"POST", "/pets", R"({"name":")" + std::string(101, 'n') + R"(","categoryId":)" + cat + "}",
       "application/json", 400, "invalid_value"},
      {"POST", "/pets", R"({"name":"  ","categoryId":)" + cat + "}", "application/json", 400,
       "invalid_value"},
      {"POST", "/pets", R"({"name":"x","categoryId":)" + cat + R"(,"colour":"red"})", "application/json", 400,
       "unknown_field"},
      {"POST", "/pets", R"({"id":5,"name":"x","categoryId":)" + cat + "}", "application/json", 400,
       "read_only_field"},
      {"POST", "/pets", R"({"name":"x","categoryId":123456789})", "application/json", 422,
       "unknown_category"},
      {"POST", "/pets", R"({"name":"x","categoryId":)" + cat + "}", "text/plain", 415,
       "unsupported_media_type"},
      {"POST", "/pets", R"({"name":")" + std::string(20000, 'n') + R"(","categoryId":1})", "application/json",
       413, "payload_too_large"},
      {"GET", "/pets/abc", "", "", 400, "invalid_id"},
      {"GET", "/pets/99999999999999999999", "", "", 400, "invalid_id"},
      {"GET", "/pets/0", "", "", 400, "invalid_id"},
      {"GET", "/pets/123", "", "", 404, "pet_not_found"},
      {"GET", "/pets?limit=1000", "", "", 400, "invalid_query"},
      {"GET", "/pets?status=lost", "", "", 400, "invalid_query"},
      {"GET", "/pets?categoryId=x", "", "", 400, "invalid_query"},
      {"GET", "/pets?colour=red", "", "", 400, "invalid_query"},
      {"GET", "/nowhere", "", "", 404, "route_not_found"},
      {"PATCH", "/pets", "{}", "application/json", 405, "method_not_allowed"},
      {"DELETE", "/pets", "", "", 405, "method_not_allowed"},
      {"PUT", "/categories/1", R"({"name":"x","id":2})", "application/json", 400, "invalid_value"},
      {"POST", "/categories", R"({"name":"x","description":")" + std::string(1001, 'd') + "\"}",
       "application/json", 400, "invalid_value"},
  };
  const auto pets_before = parse(http_->Get("/pets?limit=100")->body).Size();
  for (const auto& c : cases) {
    const auto send = [&]() {
      if (c.method == "POST") {
        return http_->Post(c.path.c_str(), c.body, c.content_type.c_str());
      }
      if (c.method == "PUT") {
        return http_->Put(c.path.c_str(), c.body, c.content_type.c_str());
      }
      if (c.method == "PATCH") {
        return http_->Patch(c.path.c_str(), c.body, c.content_type.c_str());
      }
      if (c.method == "DELETE") {
        return http_->Delete(c.path.c_str());
      }
      return http_->Get(c.path.c_str());
    };
    const auto r = send();
    ASSERT_TRUE(r) << c.method << " " << c.path;
    EXPECT_EQ(r->status, c.status) << c.method << " " << c.path.substr(0, 60) << " " << c.body.substr(0, 80)
                                   << " -> " << r->body;
    EXPECT_EQ(error_code(r), c.code) << c.method << " " << c.path.substr(0, 60) << " "
                                     << c.body.substr(0, 80);
    if (c.status == 405) {
      EXPECT_FALSE(r->get_header_value("Allow").empty());
    }
  }
  EXPECT_EQ(parse(http_->Get("/pets?limit=100")->body).Size(), pets_before);
}

TEST_F(PetsApi, IfMatchGuardsWrites) {
  const auto id = new_pet(new_category());
  const auto path = "/pets/" + std::to_string(id) + "/status";
  auto r = put_json(*http_, path, R"({"status":"pending"})", {{"If-Match", "\"7\""}});
  EXPECT_EQ(r->status, 412);
  EXPECT_EQ(error_code(r), "precondition_failed");
  r = put_json(*http_, path, R"({"status":"pending"})", {{"If-Match", "\"1\""}});
  EXPECT_EQ(r->status, 200);
  r = http_->Delete(("/pets/" + std::to_string(id)).c_str(), {{"If-Match", "\"1\""}});
  EXPECT_EQ(r->status, 412);
  r = http_->Delete(("/pets/" + std::to_string(id)).c_str(), {{"If-Match", "\"2\""}});
  EXPECT_EQ(r->status, 204);
}

TEST_F(PetsApi, IdempotencyKeyReplaysTheOriginalResponseAndAppendsOnce) {
  const auto cat = std::to_string(new_category());
  const auto key = unique_name("idem");
  const auto body = R"({"name":"Once","categoryId":)" + cat + "}";
  const auto first = post_json(*http_, "/pets", body, {{"Idempotency-Key", key}});
  ASSERT_EQ(first->status, 201);
  const auto second = post_json(*http_, "/pets", body, {{"Idempotency-Key", key}});
  ASSERT_EQ(second->status, 201);
  EXPECT_EQ(second->body, first->body);
  EXPECT_EQ(second->get_header_value("Location"), first->get_header_value("Location"));
  EXPECT_EQ(second->get_header_value("Idempotent-Replayed"), "true");

  const auto other =
      post_json(*http_, "/pets", R"({"name":"Other","categoryId":)" + cat + "}", {{"Idempotency-Key", key}});
  EXPECT_EQ(other->status, 422);
  EXPECT_EQ(error_code(other), "idempotency_key_reused");

  // The stored response lost (a Redis failover, a wipe): the pet's event
  // carries the key's digest, so the pets topic's owner knows from its fold
  // of the log that this request created its pet. The retry gets that pet
  // as it is now, and nothing is appended.
  ASSERT_EQ(put_json(*http_, "/pets/" + std::to_string(id_of(first)) + "/status", R"({"status":"pending"})")
                ->status,
            200);
  ASSERT_EQ(redis_command({"DEL", deployment_->redis_key_base() + "idem:pets:" + key}),
            std::vector<std::string>{"1"});
  const auto after_loss = post_json(*http_, "/pets", body, {{"Idempotency-Key", key}});
  ASSERT_EQ(after_loss->status, 201) << after_loss->body;
  EXPECT_EQ(id_of(after_loss), id_of(first));
  EXPECT_FALSE(after_loss->has_header("Idempotent-Replayed"));
  EXPECT_STREQ(parse(after_loss->body)["status"].GetString(), "pending");
  EXPECT_EQ(after_loss->get_header_value("ETag"), "\"2\"");

  int created_events = 0;
  const auto id = std::to_string(id_of(first));
  for (const auto& m : read_topic(deployment_->pets_topic())) {
    created_events += m.key == id ? 1 : 0;
  }
  EXPECT_EQ(created_events, 2) << "pet.created, then status_changed; the retries appended nothing";
}

// A replay is the first answer (docs/api.md, "Retries"): deleting the
// category since changes neither its status nor its body.
TEST_F(PetsApi, AReplayedCreateAnswersAsTheFirstTimeAfterItsResourceIsDeleted) {
  const auto key = unique_name("idem");
  const auto body = R"({"name":")" + unique_name("gone") + R"("})";
  const auto first = post_json(*http_, "/categories", body, {{"Idempotency-Key", key}});
  ASSERT_EQ(first->status, 201);
  const auto path = "/categories/" + std::to_string(id_of(first));
  ASSERT_EQ(http_->Delete(path.c_str())->status, 204);
  const auto replay = post_json(*http_, "/categories", body, {{"Idempotency-Key", key}});
  ASSERT_EQ(replay->status, 201);
  EXPECT_EQ(replay->body, first->body);
  EXPECT_EQ(replay->get_header_value("Idempotent-Replayed"), "true");
  EXPECT_EQ(http_->Get(path.c_str())->status, 404);
}

TEST_F(PetsApi, CategoryInUseCannotBeDeleted) {
  const auto cat = new_category();
  const auto pet = new_pet(cat);
  auto r = http_->Delete(("/categories/" + std::to_string(cat)).c_str());
  EXPECT_EQ(r->status, 409);
  EXPECT_EQ(error_code(r), "category_in_use");
  ASSERT_EQ(http_->Delete(("/pets/" + std::to_string(pet)).c_str())->status, 204);
  r = http_->Delete(("/categories/" + std::to_string(cat)).c_str());
  EXPECT_EQ(r->status, 204);
  r = post_json(*http_, "/pets", R"({"name":"Late","categoryId":)" + std::to_string(cat) + "}");
  EXPECT_EQ(error_code(r), "unknown_category");
}

TEST_F(PetsApi, EventsAreCloudEventsKeyedByAggregateWithGaplessVersions) {
  const auto cat = new_category();
  const auto id = new_pet(cat);
  put_json(*http_, "/pets/" + std::to_string(id) + "/status", R"({"status":"pending"})");
  http_->Delete(("/pets/" + std::to_string(id)).c_str());

  std::vector<std::pair<std::string, std::int64_t>> seen;
  for (const auto& m : read_topic(deployment_->pets_topic())) {
    if (m.key != std::to_string(id)) {
      continue;
    }
    const auto e = events::from_message(m);  // throws if any ce_* attribute is missing
    EXPECT_EQ(e.aggregate_id(), id);
    EXPECT_EQ(e.source, "/petstore/pets");
    // pet.created is at its schema's current version (2 or later: the
    // optional description), the rest at 1.
    EXPECT_EQ(e.schema_version, e.type == "io.petstore.pet.created"
                                    ? pets::schema_version_of(pets::Event{pets::PetCreated{}})
                                    : 1);
    EXPECT_EQ(*m.header("ce_dataschema"), events::dataschema_for(e.type, e.schema_version));
    EXPECT_EQ(*m.header("content-type"), "application/json");
    seen.emplace_back(e.type, e.version);
  }
  const std::vector<std::pair<std::string, std::int64_t>> expected = {
      {"io.petstore.pet.created", 1}, {"io.petstore.pet.status_changed", 2}, {"io.petstore.pet.deleted", 3}};
  EXPECT_EQ(seen, expected);
}

TEST_F(PetsApi, HealthzReportsDependencies) {
  const auto r = http_->Get("/healthz");
  ASSERT_EQ(r->status, 200);
  const auto body = parse(r->body);
  EXPECT_STREQ(body["checks"]["redis"].GetString(), "ok");
  EXPECT_STREQ(body["checks"]["kafka"].GetString(), "ok");
}

}  // namespace
}  // namespace petstore::testing
