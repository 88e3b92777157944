#include "http/request.h"

#include <gtest/gtest.h>

#include "http/api_error.h"
#include "http/router.h"

namespace petstore::http {
namespace {

httplib::Request with_header(const std::string& name, const std::string& value) {
  httplib::Request req;
  req.headers.emplace(name, value);
  return req;
}

int status_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ApiException& e) {
    return e.error().status;
  }
  return 0;
}

TEST(IfMatch, StrongComparisonOfEntityTags) {
  EXPECT_EQ(status_of([] { check_if_match(httplib::Request{}, 3); }), 0);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "\"3\""), 3); }), 0);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "*"), 3); }), 0);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "\"1\", \"3\""), 3); }), 0);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "\"2\""), 3); }), 412);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "W/\"3\""), 3); }), 412);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "3"), 3); }), 400);
}

TEST(IfMatch, ACommaMayStandInsideAnEntityTag) {
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "\"a,b\""), 3); }), 412);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "\"a,b\", \"3\""), 3); }), 0);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", " , \"3\" ,"), 3); }), 0);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "\"a,b"), 3); }), 400);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "\"3\"x"), 3); }), 400);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "\"a b\""), 3); }), 400);
}

TEST(IfMatch, AStarStandsAlone) {
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", " * , "), 3); }), 0);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "*, \"3\""), 3); }), 400);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "\"2\", *"), 3); }), 400);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "* x"), 3); }), 400);
}

TEST(IfMatch, AnEmptyFieldIsRefused) {
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", ""), 3); }), 400);
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", " , "), 3); }), 400);
}

TEST(IfMatch, PercentIsJustACharacterOfTheTag) {
  EXPECT_EQ(status_of([] { check_if_match(with_header("If-Match", "\"%31\""), 1); }), 412);
}

TEST(ResponseCoding, WeightsAndWildcards) {
  const auto coding = [](std::string_view accept) { return response_coding(accept, {"br", "gzip"}); };
  EXPECT_EQ(coding("gzip"), "gzip");
  EXPECT_EQ(coding("gzip, deflate, br"), "br");
  EXPECT_EQ(coding("br;q=0.5, gzip"), "gzip");
  EXPECT_EQ(coding("GZIP"), "gzip");
  EXPECT_EQ(coding("x-gzip"), "gzip");
  EXPECT_EQ(coding("gzip;q=0"), "");
  EXPECT_EQ(coding("gzip; q=0.000"), "");
  EXPECT_EQ(coding("gzip;q=0, br;q=0"), "");
  EXPECT_EQ(coding("identity"), "");
  EXPECT_EQ(coding(""), "");
  EXPECT_EQ(coding("gzipx, x-br"), "");
  EXPECT_EQ(coding("*"), "br");
  EXPECT_EQ(coding("*;q=0"), "");
  EXPECT_EQ(coding("*, br;q=0"), "gzip");
  EXPECT_EQ(coding("gzip;q=0.5, identity"), "");
  EXPECT_EQ(coding("gzip;q=0.5, identity;q=0.4"), "gzip");
  EXPECT_EQ(coding("gzip;q=2"), "");
  EXPECT_EQ(coding("gzip;q=abc"), "");
}

TEST(IfMatch, SeveralFieldLinesAreOneList) {
  auto req = with_header("If-Match", "\"2\"");
  req.headers.emplace("If-Match", "\"3\"");
  EXPECT_EQ(status_of([&] { check_if_match(req, 3); }), 0);
  EXPECT_EQ(status_of([&] { check_if_match(req, 2); }), 0);
  EXPECT_EQ(status_of([&] { check_if_match(req, 4); }), 412);
  req.headers.emplace("If-Match", "4");
  EXPECT_EQ(status_of([&] { check_if_match(req, 4); }), 400);
}

TEST(Query, UnknownRepeatedAndBadValues) {
  httplib::Request req;
  req.params.emplace("limit", "0");
  EXPECT_EQ(status_of([&] { page_request(Query(req, {"limit"})); }), 400);
  req.params = {{"limit", "100"}};
  EXPECT_EQ(page_request(Query(req, {"limit"})).limit, 100);
  req.params = {{"limit", "101"}};
  EXPECT_EQ(status_of([&] { page_request(Query(req, {"limit"})); }), 400);
  req.params = {{"staus", "sold"}};
  EXPECT_EQ(status_of([&] { Query(req, {"status"}); }), 400);
  req.params = {{"status", "a"}, {"status", "b"}};
  EXPECT_EQ(status_of([&] { Query(req, {"status"}); }), 400);
  req.params = {{"cursor", "-5"}};
  EXPECT_EQ(status_of([&] { page_request(Query(req, {"cursor"})); }), 400);
}

TEST(NextLink, KeepsFiltersAndReplacesTheCursor) {
  httplib::Request req;
  req.path = "/pets";
  req.params = {{"status", "sold"}, {"cursor", "5"}, {"limit", "2"}};
  const auto link = next_link(req, 9);
  EXPECT_NE(link.find("status=sold"), std::string::npos);
  EXPECT_NE(link.find("limit=2"), std::string::npos);
  EXPECT_NE(link.find("cursor=9>"), std::string::npos);
  EXPECT_EQ(link.find("cursor=5"), std::string::npos);
  EXPECT_NE(link.find("rel=\"next\""), std::string::npos);
}

TEST(IdempotencyKey, VisibleAsciiUpTo255) {
  EXPECT_EQ(idempotency_key(with_header("Idempotency-Key", "abc-123")), "abc-123");
  EXPECT_FALSE(idempotency_key(httplib::Request{}).has_value());
  EXPECT_EQ(status_of([] { idempotency_key(with_header("Idempotency-Key", std::string(256, 'k'))); }), 400);
  EXPECT_EQ(status_of([] { idempotency_key(with_header("Idempotency-Key", "a b")); }), 400);
  EXPECT_EQ(status_of([] { idempotency_key(with_header("Idempotency-Key", "")); }), 400);
  auto twice = with_header("Idempotency-Key", "abc-123");
  twice.headers.emplace("Idempotency-Key", "abc-123");
  EXPECT_EQ(status_of([&] { idempotency_key(twice); }), 400);
}

TEST(JsonBody, MediaTypeIsCaseInsensitive) {
  auto req = with_header("Content-Type", "Application/JSON; charset=utf-8");
  req.body = "{}";
  EXPECT_NO_THROW(require_json_body(req));
  req.headers = {{"Content-Type", "text/plain"}};
  EXPECT_EQ(status_of([&] { require_json_body(req); }), 415);
  req.headers = {{"Content-Type", "application/jsonx"}};
  EXPECT_EQ(status_of([&] { require_json_body(req); }), 415);
}

}  // namespace
}  // namespace petstore::http
