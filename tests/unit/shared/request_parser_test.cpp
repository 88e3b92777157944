#include "http/request_parser.h"

#include <gtest/gtest.h>

#include "http/response_writer.h"

namespace petstore::http {
namespace {

using State = Parsed::State;

struct Outcome {
  Parsed parsed;
  httplib::Request req;
};

Outcome parse(std::string_view data, ParseLimits limits = {}) {
  Outcome o;
  o.parsed = parse_request(data, limits, o.req);
  return o;
}

TEST(RequestParser, ASimpleGetWithQueryAndHeaders) {
  const std::string wire =
      "GET /pets/7/profile?status=sold&name=a%20b+c HTTP/1.1\r\nHost: x\r\nX-API-Key:  k  \r\n\r\n";
  const auto o = parse(wire);
  ASSERT_EQ(o.parsed.state, State::Complete);
  EXPECT_EQ(o.parsed.consumed, wire.size());
  EXPECT_TRUE(o.parsed.keep_alive);
  EXPECT_EQ(o.req.method, "GET");
  EXPECT_EQ(o.req.path, "/pets/7/profile");
  EXPECT_EQ(o.req.get_param_value("status"), "sold");
  EXPECT_EQ(o.req.get_param_value("name"), "a b c");
  EXPECT_EQ(o.req.get_header_value("x-api-key"), "k");  // names are case-insensitive, values trimmed
}

TEST(RequestParser, WaitsForTheWholeHeadAndBody) {
  const std::string wire = "POST /pets HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello";
  for (size_t cut = 0; cut < wire.size(); ++cut) {
    EXPECT_EQ(parse(wire.substr(0, cut)).parsed.state, State::Incomplete) << cut;
  }
  const auto o = parse(wire + "GET / HTTP/1.1\r\n");  // a pipelined request follows
  ASSERT_EQ(o.parsed.state, State::Complete);
  EXPECT_EQ(o.parsed.consumed, wire.size());
  EXPECT_EQ(o.req.body, "hello");
}

TEST(RequestParser, ChunkedBodiesAreDecoded) {
  const std::string wire =
      "POST /pets HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-T: "
      "1\r\n\r\n";
  const auto o = parse(wire);
  ASSERT_EQ(o.parsed.state, State::Complete);
  EXPECT_EQ(o.parsed.consumed, wire.size());
  EXPECT_EQ(o.req.body, "hello world");
  EXPECT_EQ(parse(wire.substr(0, wire.size() - 2)).parsed.state, State::Incomplete);
}

TEST(RequestParser, ConnectionManagement) {
  EXPECT_FALSE(parse("GET / HTTP/1.1\r\nConnection: close\r\n\r\n").parsed.keep_alive);
  EXPECT_FALSE(parse("GET / HTTP/1.0\r\n\r\n").parsed.keep_alive);
  EXPECT_TRUE(parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").parsed.keep_alive);
  const auto waiting = parse("PUT /x HTTP/1.1\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n");
  EXPECT_EQ(waiting.parsed.state, State::Incomplete);
  EXPECT_TRUE(waiting.parsed.expects_continue);
}

TEST(RequestParser, RefusesWhatItCannotTakeWithTheRightStatus) {
  const std::vector<std::pair<std::string, int>> cases = {
      {"GET /\r\n\r\n", 400},
      {"GET / HTTP/1.1 extra\r\n\r\n", 400},
      {"G(T / HTTP/1.1\r\n\r\n", 400},
      {"GET http://host/ HTTP/1.1\r\n\r\n", 400},
      {"GET / HTTP/2.0\r\n\r\n", 505},
      {"GET /%zz HTTP/1.1\r\n\r\n", 400},
      {"GET /a%00b HTTP/1.1\r\n\r\n", 400},
      {"GET /?a=%4 HTTP/1.1\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\nNo colon here\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\nA: 1\r\n folded\r\n\r\n", 400},
      {"POST /pets HTTP/1.1\r\n\r\n", 400},
      {"POST /pets HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400},
      {"POST /pets HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400},
      {"POST /pets HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400},
      {"POST /pets HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
      {"POST /pets HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400},
      {"POST /pets HTTP/1.1\r\nContent-Length: 16385\r\n\r\n", 413},
      {"POST /pets HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4001\r\n", 413},
      {"GET / HTTP/1.1\r\nBig: " + std::string(17000, 'x') + "\r\n\r\n", 431},
      {"GET / HTTP/1.1\r\nBig: " + std::string(17000, 'x'), 431},  // over the limit before the head ends
  };
  for (const auto& [wire, status] : cases) {
    const auto o = parse(wire);
    EXPECT_EQ(o.parsed.state, State::Invalid) << wire.substr(0, 60);
    EXPECT_EQ(o.parsed.status, status) << wire.substr(0, 60);
    EXPECT_FALSE(o.parsed.message.empty());
  }
}

TEST(ResponseWriter, FramesTheResponseItself) {
  httplib::Response res;
  res.status = 200;
  res.body = "{}";
  res.set_header("Content-Type", "application/json");
  res.set_header("Content-Length", "99");  // a handler's framing is ignored
  EXPECT_EQ(serialize_response(res, false, true),
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
  EXPECT_EQ(
      serialize_response(res, true, false),
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n");
  res.status = 204;
  res.body.clear();
  EXPECT_EQ(serialize_response(res, false, true),
            "HTTP/1.1 204 No Content\r\nContent-Type: application/json\r\n\r\n");
}

}  // namespace
}  // namespace petstore::http
