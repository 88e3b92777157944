#include "http/router.h"

#include <gtest/gtest.h>

#include <future>

#include "error/api_error.h"
#include "error/codes.h"
#include "http/response.h"

namespace petstore::http {
namespace {

// Dispatches one request and waits for its response.
httplib::Response answer(const Router& router, WorkerPool& workers, const std::string& method,
                         const std::string& path) {
  auto ex = std::make_shared<Exchange>();
  ex->req.method = method;
  ex->req.path = path;
  std::promise<void> done;
  router.dispatch(ex, workers, [&done] { done.set_value(); });
  done.get_future().wait();
  return ex->res;
}

std::string code_of(const httplib::Response& res) {
  const auto at = res.body.find("\"code\":\"");
  return at == std::string::npos ? "" : res.body.substr(at + 8, res.body.find('"', at + 8) - at - 8);
}

class RouterDispatch : public ::testing::Test {
 protected:
  RouterDispatch() {
    router_.add("GET", "/pets/{petId}", [](const httplib::Request& req, httplib::Response& res) {
      send_json(res, 200, "{\"id\":\"" + req.matches[1].str() + "\"}");
    });
    router_.add("DELETE", "/pets/{petId}", [](const httplib::Request&, httplib::Response&) {
      throw ApiException(ApiError(409, "category_in_use", "no"));
    });
    router_.add_async("GET", "/fast/{n}", [](const ExchangePtr& ex, const Done& done) {
      const auto n = ex->req.matches[1].str();
      if (n == "throw") {
        throw ApiException(ApiError(400, codes::kInvalidId, "bad"));
      }
      // Finishes on another thread, as a Redis reply would.
      std::thread([ex, done, n] {
        complete(ex, done, [&](httplib::Response& res) {
          if (n == "late") {
            throw ApiException(ApiError(404, "pet_not_found", "gone"));
          }
          send_json(res, 200, n);
        });
      }).detach();
    });
    router_.after([](const httplib::Request&, httplib::Response& res) { res.set_header("X-After", "1"); });
  }

  Router router_;
  WorkerPool workers_{2, 8};
};

TEST_F(RouterDispatch, SyncAndAsyncRoutesWithPathParameters) {
  auto res = answer(router_, workers_, "GET", "/pets/42");
  EXPECT_EQ(res.status, 200);
  EXPECT_EQ(res.body, "{\"id\":\"42\"}");
  EXPECT_EQ(res.get_header_value("X-After"), "1");
  res = answer(router_, workers_, "HEAD", "/pets/42");  // HEAD is served by GET
  EXPECT_EQ(res.status, 200);
  res = answer(router_, workers_, "GET", "/fast/7");
  EXPECT_EQ(res.body, "7");
  EXPECT_EQ(res.get_header_value("X-After"), "1");
}

TEST_F(RouterDispatch, EveryFailureIsAnErrorBody) {
  EXPECT_EQ(code_of(answer(router_, workers_, "GET", "/nowhere")), "route_not_found");
  EXPECT_EQ(code_of(answer(router_, workers_, "GET", "/pets/1/x")), "route_not_found");
  const auto wrong = answer(router_, workers_, "PUT", "/pets/1");
  EXPECT_EQ(wrong.status, 405);
  EXPECT_EQ(wrong.get_header_value("Allow"), "GET, DELETE");
  EXPECT_EQ(answer(router_, workers_, "DELETE", "/pets/1").status, 409);                // thrown on a worker
  EXPECT_EQ(code_of(answer(router_, workers_, "GET", "/fast/throw")), "invalid_id");    // before handing off
  EXPECT_EQ(code_of(answer(router_, workers_, "GET", "/fast/late")), "pet_not_found");  // in the callback
}

TEST_F(RouterDispatch, BeforeHooksMayAnswerOrPass) {
  router_.before([](const ExchangePtr& ex, const Next& next) {
    if (ex->req.path == "/pets/13") {
      send_json(ex->res, 429, "{}");
      next(true);
      return;
    }
    next(false);
  });
  EXPECT_EQ(answer(router_, workers_, "GET", "/pets/13").status, 429);
  EXPECT_EQ(answer(router_, workers_, "GET", "/pets/13").get_header_value("X-After"), "1");
  EXPECT_EQ(answer(router_, workers_, "GET", "/pets/12").status, 200);
}

TEST(WorkerPoolTest, AFullQueueRefusesInsteadOfGrowing) {
  WorkerPool pool(1, 1);
  std::promise<void> release;
  auto gate = release.get_future().share();
  std::promise<void> started;
  ASSERT_TRUE(pool.try_post([&started, gate] {
    started.set_value();
    gate.wait();
  }));
  started.get_future().wait();
  EXPECT_TRUE(pool.try_post([] {}));   // queued
  EXPECT_FALSE(pool.try_post([] {}));  // over the bound
  release.set_value();
}

}  // namespace
}  // namespace petstore::http
