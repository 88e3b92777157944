#include "support/http_json.h"

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "support/eventually.h"

namespace petstore::testing {

rapidjson::Document parse(const std::string& body) {
  rapidjson::Document d;
  d.Parse(body.c_str());
  return d;
}

httplib::Result post_json(httplib::Client& c, const std::string& path, const std::string& body,
                          const httplib::Headers& headers) {
  return c.Post(path.c_str(), headers, body, "application/json");
}

httplib::Result put_json(httplib::Client& c, const std::string& path, const std::string& body,
                         const httplib::Headers& headers) {
  return c.Put(path.c_str(), headers, body, "application/json");
}

std::string error_code(const httplib::Result& r) {
  if (!r) {
    ADD_FAILURE() << "no response";
    return "";
  }
  const auto d = parse(r->body);
  if (!d.IsObject() || !d.HasMember("code") || !d["code"].IsString() || !d.HasMember("message") ||
      !d["message"].IsString() || !d.HasMember("status") || !d["status"].IsInt() || d.MemberCount() != 3) {
    ADD_FAILURE() << "not an Error object: " << r->body;
    return "";
  }
  EXPECT_EQ(d["status"].GetInt(), r->status) << r->body;
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
  return d["code"].GetString();
}

std::int64_t id_of(const httplib::Result& r) {
  if (!r) {
    ADD_FAILURE() << "no response";
    return 0;
  }
  const auto d = parse(r->body);
  if (!d.IsObject() || !d.HasMember("id") || !d["id"].IsInt64()) {
    ADD_FAILURE() << "no id in " << r->body;
    return 0;
  }
  return d["id"].GetInt64();
}

httplib::Result post_retrying(httplib::Client& c, const std::string& path, const std::string& body,
                              const std::string& idempotency_key, int attempts) {
  for (int i = 1;; ++i) {
    auto r = post_json(c, path, body, {{"Idempotency-Key", idempotency_key}});
    // 409 request_in_progress: the same key's first attempt still runs (a
    // write waiting out a broker's loss); it says when to ask again. A 503
    // outcome_unknown has no Retry-After: with the same key, asking again
    // (after a second) is how a client learns the outcome.
    const bool again =
        r && (r->status == 503 || (r->status == 409 && error_code(r) == "request_in_progress"));
    if (i == attempts || !again) {
      return r;
    }
    std::this_thread::sleep_for(std::chrono::seconds(
        r->has_header("Retry-After") ? std::stoi(r->get_header_value("Retry-After")) : 1));
  }
}

bool stock_when_tracked(httplib::Client& c, std::int64_t pet, std::int64_t quantity,
                        std::chrono::milliseconds wait) {
  const auto path = "/store/inventory/items/" + std::to_string(pet);
  const auto body = R"({"quantity":)" + std::to_string(quantity) + "}";
  return eventually(
      [&] {
        const auto r = put_json(c, path, body);
        return r && r->status == 200;
      },
      wait);
}

StockedPets stocked_pets(httplib::Client& c, const std::string& category, int n, std::int64_t quantity) {
  StockedPets out;
  out.category = id_of(post_json(c, "/categories", R"({"name":")" + category + R"("})"));
  for (int i = 0; i < n; ++i) {
    out.pets.push_back(id_of(post_json(c, "/pets",
                                       R"({"name":")" + category + " " + std::to_string(i) +
                                           R"(","categoryId":)" + std::to_string(out.category) + "}")));
  }
  for (const auto pet : out.pets) {
    if (!stock_when_tracked(c, pet, quantity)) {
      ADD_FAILURE() << "pet " << pet << " never got an inventory entry";
      out.stocked = false;
    }
  }
  return out;
}

}  // namespace petstore::testing
