#include "http/request_head.h"

#include <gtest/gtest.h>

namespace petstore::http {
namespace {

using Outcome = HeadScan::Outcome;

TEST(RequestHead, ReadsTheLineAndFieldsAsSent) {
  const std::string bytes =
      "PUT /pets/1 HTTP/1.1\r\nHost: x\r\nIf-Match: \"%31\"\r\nIdempotency-Key:\r\n\r\n{}";
  const auto scan = scan_request_head(bytes);
  ASSERT_EQ(scan.outcome, Outcome::Whole) << scan.why;
  EXPECT_EQ(scan.consumed, bytes.size() - 2);
  EXPECT_EQ(scan.head.method, "PUT");
  EXPECT_EQ(scan.head.target, "/pets/1");
  EXPECT_EQ(scan.head.version, "HTTP/1.1");
  ASSERT_EQ(scan.head.fields.size(), 3U);
  EXPECT_EQ(scan.head.fields[1].value, "\"%31\"");  // not percent-decoded
  EXPECT_EQ(scan.head.fields[2].name, "Idempotency-Key");
  EXPECT_EQ(scan.head.fields[2].value, "");  // an empty value is kept
}

TEST(RequestHead, SkipsEmptyLinesBeforeTheRequestLineAndTakesBareLineFeeds) {
  const auto scan = scan_request_head("\r\n\n\r\nGET / HTTP/1.1\nHost: x\n\n");
  ASSERT_EQ(scan.outcome, Outcome::Whole) << scan.why;
  EXPECT_EQ(scan.head.method, "GET");
  EXPECT_EQ(scan.head.fields.size(), 1U);
}

TEST(RequestHead, ReadsALaterMinorVersionAsOneOne) {
  EXPECT_EQ(scan_request_head("GET / HTTP/1.2\r\n\r\n").head.version, "HTTP/1.1");
  EXPECT_EQ(scan_request_head("GET / HTTP/1.0\r\n\r\n").head.version, "HTTP/1.0");
  EXPECT_EQ(scan_request_head("GET / HTTP/2.0\r\n\r\n").outcome, Outcome::VersionNotSupported);
  EXPECT_EQ(scan_request_head("GET / HTTP/1.10\r\n\r\n").outcome, Outcome::Malformed);
  EXPECT_EQ(scan_request_head("GET / http/1.1\r\n\r\n").outcome, Outcome::Malformed);
}

TEST(RequestHead, WaitsForTheEmptyLine) {
  EXPECT_EQ(scan_request_head("").outcome, Outcome::Incomplete);
  EXPECT_EQ(scan_request_head("\r\n").outcome, Outcome::Incomplete);
  EXPECT_EQ(scan_request_head("GET / HTTP/1.1\r\nHost: x\r\n").outcome, Outcome::Incomplete);
  EXPECT_EQ(scan_request_head("GET / HTTP/1.1\r\nHost: x\r\n\r").outcome, Outcome::Incomplete);
}

TEST(RequestHead, RefusesWhatRfc9112Refuses) {
  for (const char* bad : {"GET  / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1 \r\n\r\n", "G(T / HTTP/1.1\r\n\r\n",
                          "GET /\x01 HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nX-A : 1\r\n\r\n",
                          "GET / HTTP/1.1\r\nX-A: 1\r\n folded\r\n\r\n", "GET / HTTP/1.1\r\nNoColon\r\n\r\n",
                          "GET / HTTP/1.1\r\nX-A: 1\r2\r\n\r\n", "GET / HTTP/1.1\r\nX-A: a\x01z\r\n\r\n",
                          "GET / HTTP/1.1\r\n: empty name\r\n\r\n"}) {
    EXPECT_EQ(scan_request_head(bad).outcome, Outcome::Malformed) << bad;
  }
}

TEST(RequestHead, CanonicalFormIsWhatCppHttplibParsesAsSent) {
  auto scan = scan_request_head(
      "QUERY /pets HTTP/1.0\nExpect: 100-continue\nIf-Match: \"%31\"\nIdempotency-Key:\nHost: x\n\n");
  ASSERT_EQ(scan.outcome, Outcome::Whole) << scan.why;
  EXPECT_FALSE(parser_knows_method("QUERY"));
  EXPECT_EQ(canonical_head(scan.head), "TRACE /pets HTTP/1.0\r\nIf-Match: \"%2531\"\r\nHost: x\r\n\r\n");
  scan = scan_request_head("POST /pets HTTP/1.1\r\nExpect: 100-continue\r\n\r\n");
  EXPECT_EQ(canonical_head(scan.head), "POST /pets HTTP/1.1\r\nExpect: 100-continue\r\n\r\n");
}

}  // namespace
}  // namespace petstore::http
