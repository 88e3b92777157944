#include "http/router.h"

#include <gtest/gtest.h>

#include "error/codes.h"
#include "http/api_error.h"
#include "http/response.h"

namespace petstore::http {
namespace {

httplib::Response answer(const Router& router, const std::string& method, const std::string& path) {
  httplib::Request req;
  req.method = method;
  req.path = path;
  httplib::Response res;
  router.handle(req, res);
  return res;
}

std::string code_of(const httplib::Response& res) {
  const auto at = res.body.find("\"code\":\"");
  return at == std::string::npos ? "" : res.body.substr(at + 8, res.body.find('"', at + 8) - at - 8);
}

class RouterTest : public ::testing::Test {
 protected:
  RouterTest() {
    router_.add("GET", "/pets/{petId}",
                [](const httplib::Request&, httplib::Response& res, const PathParams& p) {
                  send_json(res, 200, "{\"id\":" + std::to_string(p.id(0, "petId")) + "}");
                });
    router_.add("GET", "/pets/{petId}/tags/{tag}",
                [](const httplib::Request&, httplib::Response& res, const PathParams& p) {
                  send_json(res, 200, "\"" + p.text(0) + "/" + p.text(1) + "\"");
                });
    router_.add("DELETE", "/pets/{petId}",
                [](const httplib::Request&, httplib::Response&, const PathParams&) {
                  throw ApiException(ApiError(409, "category_in_use", "no"));
                });
    router_.add("GET", "/pets", [](const httplib::Request&, httplib::Response& res, const PathParams&) {
      send_json(res, 200, "[]");
    });
    router_.after([](const httplib::Request&, httplib::Response& res) { res.set_header("X-After", "1"); });
  }

  Router router_;
};

TEST_F(RouterTest, PathParametersInTemplateOrder) {
  auto res = answer(router_, "GET", "/pets/42");
  EXPECT_EQ(res.status, 200);
  EXPECT_EQ(res.body, "{\"id\":42}");
  EXPECT_EQ(res.get_header_value("X-After"), "1");
  EXPECT_EQ(answer(router_, "GET", "/pets/7/tags/red").body, "\"7/red\"");
  EXPECT_EQ(answer(router_, "HEAD", "/pets/42").status, 200);  // HEAD is served by GET
  EXPECT_EQ(answer(router_, "GET", "/pets").body, "[]");
}

TEST_F(RouterTest, EveryFailureIsAnErrorBodyWithAfterHooks) {
  EXPECT_EQ(code_of(answer(router_, "GET", "/nowhere")), "route_not_found");
  EXPECT_EQ(code_of(answer(router_, "GET", "/pets/1/x")), "route_not_found");
  EXPECT_EQ(code_of(answer(router_, "GET", "/pets/")), "route_not_found");  // an empty parameter
  EXPECT_EQ(code_of(answer(router_, "GET", "/pets//tags/x")), "route_not_found");
  const auto wrong = answer(router_, "PUT", "/pets/1");
  EXPECT_EQ(wrong.status, 405);
  EXPECT_EQ(wrong.get_header_value("Allow"), "GET, DELETE");
  const auto thrown = answer(router_, "DELETE", "/pets/1");
  EXPECT_EQ(thrown.status, 409);
  EXPECT_EQ(thrown.get_header_value("X-After"), "1");
  EXPECT_EQ(code_of(answer(router_, "GET", "/pets/abc")), "invalid_id");
  EXPECT_EQ(code_of(answer(router_, "GET", "/pets/0")), "invalid_id");
  EXPECT_EQ(code_of(answer(router_, "GET", "/pets/99999999999999999999")), "invalid_id");
}

// The input that once overflowed std::regex's recursion, and longer.
TEST_F(RouterTest, LongPathsAreMatchedWithoutRecursion) {
  const std::string path = "/admin/keys/" + std::string(1'000'000, 'a');
  EXPECT_EQ(code_of(answer(router_, "GET", path)), "route_not_found");
  const auto res = answer(router_, "GET", "/pets/" + std::string(100'000, '7'));
  EXPECT_EQ(code_of(res), "invalid_id");
  EXPECT_LT(res.body.size(), 400U);  // the echo of the path is cut
}

TEST_F(RouterTest, BeforeHooksMayAnswerOrPass) {
  Router r;
  r.add("GET", "/x", [](const httplib::Request&, httplib::Response& res, const PathParams&) {
    send_json(res, 200, "ok");
  });
  r.before([](const httplib::Request& req, httplib::Response& res, bool) {
    if (req.get_header_value("X-Block") == "1") {
      send_error(res, ApiError(429, codes::kRateLimited, "slow down"));
      return Admission::decided(true);
    }
    res.set_header("X-Budget", "9");
    return Admission::decided(false);
  });
  httplib::Request req;
  req.method = "GET";
  req.path = "/x";
  httplib::Response passed;
  r.handle(req, passed);
  EXPECT_EQ(passed.status, 200);
  EXPECT_EQ(passed.get_header_value("X-Budget"), "9");
  req.headers.emplace("X-Block", "1");
  httplib::Response blocked;
  r.handle(req, blocked);
  EXPECT_EQ(blocked.status, 429);
  // Hooks run for unknown paths too (the 404 carries the budget headers).
  req.headers.clear();
  req.path = "/unknown";
  httplib::Response unknown;
  r.handle(req, unknown);
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(unknown.get_header_value("X-Budget"), "9");
}

// A word that comes later: refuses with a 429 or admits with a budget header.
class LaterWord final : public Deferred {
 public:
  explicit LaterWord(bool refuse) : refuse_(refuse) {}
  bool refused(httplib::Response& word) override {
    if (refuse_) {
      send_error(word, ApiError(429, codes::kRateLimited, "slow down"));
      return true;
    }
    word.set_header("X-Budget", "8");
    return false;
  }

 private:
  bool refuse_;
};

TEST_F(RouterTest, ADeferredWordDecidesTheAnswerOfASafeRequestAfterItsHandlerRan) {
  Router r;
  int handled = 0;
  const auto body = [&handled](const httplib::Request&, httplib::Response& res, const PathParams&) {
    ++handled;
    res.set_header("ETag", "\"1\"");
    send_json(res, 200, "{\"secret\":1}");
  };
  r.add("GET", "/x", body);
  r.add("POST", "/x", body);
  std::vector<bool> offered;
  r.before([&offered](const httplib::Request& req, httplib::Response&, bool may_defer) {
    offered.push_back(may_defer);
    if (!may_defer) {
      return Admission::decided(false);
    }
    return Admission{false, std::make_unique<LaterWord>(req.get_header_value("X-Block") == "1")};
  });
  httplib::Request req;
  req.method = "GET";
  req.path = "/x";
  httplib::Response admitted;
  r.handle(req, admitted);
  EXPECT_EQ(admitted.status, 200);
  EXPECT_EQ(admitted.get_header_value("X-Budget"), "8");
  EXPECT_EQ(admitted.get_header_value("ETag"), "\"1\"");

  req.headers.emplace("X-Block", "1");
  httplib::Response refused;
  r.handle(req, refused);
  EXPECT_EQ(handled, 2) << "the handler ran while the word was on its way";
  EXPECT_EQ(refused.status, 429);
  EXPECT_EQ(code_of(refused), "rate_limited");
  EXPECT_EQ(refused.body.find("secret"), std::string::npos) << "nothing the handler made is sent";
  EXPECT_FALSE(refused.has_header("ETag"));

  // Only a safe request with a route may be deferred: never a POST (its
  // handler writes) and never an unknown path (there is no handler to overlap).
  req.method = "POST";
  httplib::Response posted;
  r.handle(req, posted);
  req.method = "GET";
  req.path = "/unknown";
  httplib::Response unknown;
  r.handle(req, unknown);
  EXPECT_EQ(offered, (std::vector<bool>{true, true, false, false}));
  EXPECT_EQ(unknown.status, 404);
}

TEST(RouterTable, AllowedMethodsAndTemplates) {
  Router r;
  r.add("GET", "/pets/{petId}", {});
  r.add("DELETE", "/pets/{petId}", {});
  r.add("GET", "/pets", {});
  EXPECT_EQ(r.allowed_methods("/pets/12"), "GET, DELETE");
  EXPECT_EQ(r.allowed_methods("/pets/12/x"), "");
  EXPECT_EQ(split_template("/pets/{petId}/status"), (std::vector<std::string>{"pets", "{petId}", "status"}));
}

}  // namespace
}  // namespace petstore::http
