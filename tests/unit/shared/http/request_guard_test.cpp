#include "http/request_guard.h"

#include <gtest/gtest.h>

namespace petstore::http {
namespace {

httplib::Request request(std::string method, std::string target, httplib::Headers headers = {}) {
  httplib::Request req;
  req.method = std::move(method);
  req.target = std::move(target);
  req.path = req.target.substr(0, req.target.find('?'));
  req.version = "HTTP/1.1";
  req.headers = std::move(headers);
  req.headers.emplace("Host", "petstore.test");
  return req;
}

int status_of(const httplib::Request& req) {
  const auto v = inspect_head(req, RequestLimits{});
  return v.refusal ? v.refusal->status : 0;
}

TEST(RequestGuard, WellFormedRequestsPassWithTheirFraming) {
  EXPECT_EQ(status_of(request("GET", "/pets?limit=1")), 0);
  auto post = request("POST", "/pets", {{"Content-Length", "12"}});
  EXPECT_EQ(inspect_head(post, {}).body, Body::Length);
  auto chunked = request("PUT", "/pets/1", {{"Transfer-Encoding", "Chunked"}});
  EXPECT_EQ(inspect_head(chunked, {}).body, Body::Chunked);
  EXPECT_EQ(inspect_head(request("POST", "/x", {{"Content-Length", "0"}}), {}).body, Body::None);
  EXPECT_EQ(status_of(request("DELETE", "/pets/1")), 0);  // DELETE needs no length
}

// RFC 9112, section 6.3: neither Content-Length nor Transfer-Encoding is an
// empty body, for any method.
TEST(RequestGuard, NoFramingAtAllIsAnEmptyBody) {
  for (const char* method : {"POST", "PUT", "PATCH", "DELETE"}) {
    const auto v = inspect_head(request(method, "/p"), {});
    EXPECT_FALSE(v.refusal.has_value()) << method;
    EXPECT_EQ(v.body, Body::None) << method;
  }
}

TEST(RequestGuard, AMethodNoRouteServesMayCarryABody) {
  EXPECT_EQ(inspect_head(request("QUERY", "/pets", {{"Content-Length", "2"}}), {}).body, Body::Length);
  EXPECT_EQ(inspect_head(request("TRACE", "/p", {{"Content-Length", "2"}}), {}).body, Body::Length);
  EXPECT_EQ(status_of(request("OPTIONS", "/p", {{"Content-Length", "2"}})), 400);
}

TEST(RequestGuard, FramingThatCouldBeReadTwoWaysIsRefused) {
  EXPECT_EQ(status_of(request("POST", "/p", {{"Content-Length", "4"}, {"Transfer-Encoding", "chunked"}})),
            400);
  EXPECT_EQ(status_of(request("POST", "/p", {{"Content-Length", "4"}, {"Content-Length", "4"}})), 400);
  EXPECT_EQ(status_of(request("POST", "/p", {{"Transfer-Encoding", "gzip"}})), 400);
  EXPECT_EQ(status_of(request("POST", "/p", {{"Transfer-Encoding", "chunked, gzip"}})), 400);
  EXPECT_EQ(status_of(request("POST", "/p", {{"Content-Length", "-1"}})), 400);
  EXPECT_EQ(status_of(request("POST", "/p", {{"Content-Length", "1 2"}})), 400);
  EXPECT_EQ(status_of(request("GET", "/p", {{"Content-Length", "5"}})), 400);  // GET with a body
  EXPECT_EQ(status_of(request("GET", "/p", {{"Transfer-Encoding", "chunked"}})), 400);
  EXPECT_EQ(status_of(request("POST", "/p", {{"Content-Length", "16385"}})), 413);
}

TEST(RequestGuard, HostAndHeaderBounds) {
  auto no_host = request("GET", "/pets");
  no_host.headers.erase("Host");
  EXPECT_EQ(status_of(no_host), 400);
  no_host.version = "HTTP/1.0";
  EXPECT_EQ(status_of(no_host), 0);
  EXPECT_EQ(status_of(request("GET", "/pets", {{"Host", "other"}})), 400);
  EXPECT_EQ(
      status_of(request(
          "POST", "/pets",
          {{"Content-Length", "2"}, {"Content-Type", "application/json"}, {"Content-Type", "text/plain"}})),
      400);
  EXPECT_EQ(
      status_of(request("POST", "/pets", {{"Content-Length", "2"}, {"Content-Type", "application/json"}})),
      0);
  httplib::Headers many;
  for (int i = 0; i < 101; ++i) {
    many.emplace("X-" + std::to_string(i), "v");
  }
  EXPECT_EQ(status_of(request("GET", "/pets", many)), 431);
  EXPECT_EQ(status_of(request("GET", "/pets", {{"X-Big", std::string(17'000, 'x')}})), 431);
  EXPECT_EQ(status_of(request("GET", "/pets", {{"X-Key", std::string("a\0b", 3)}})), 400);
  EXPECT_EQ(status_of(request("GET", "/pets", {{"Bad Name", "v"}})), 400);
  EXPECT_EQ(status_of(request("GET", "/pets", {{"X-Tab", "a\tb"}})), 0);  // HTAB is allowed in values
}

TEST(RequestGuard, TargetsPathsAndQueries) {
  EXPECT_EQ(status_of(request("GET", "/pets\x01")), 400);
  EXPECT_EQ(status_of(request("GET", "/p\xC3\xA9ts")), 400);  // raw non-ASCII in the target
  auto decoded = request("GET", "/pets%00");
  decoded.path = std::string("/pets\0", 6);
  EXPECT_EQ(status_of(decoded), 400);
  decoded.path = "/nope\xFF";
  EXPECT_EQ(status_of(decoded), 400);
  EXPECT_EQ(status_of(request("GET", "/" + std::string(2100, 'a'))), 414);
  EXPECT_EQ(status_of(request("GET", "*")), 400);
  auto query = request("GET", "/pets");
  for (int i = 0; i < 33; ++i) {
    query.params.emplace("p" + std::to_string(i), "1");
  }
  EXPECT_EQ(inspect_head(query, {}).refusal->code, "invalid_query");
  auto control = request("GET", "/pets");
  control.params.emplace("status", "\x01");
  EXPECT_EQ(inspect_head(control, {}).refusal->code, "invalid_query");
}

}  // namespace
}  // namespace petstore::http
