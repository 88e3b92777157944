#include "http/chunked.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace petstore::http {
namespace {

using Outcome = ChunkedBody::Outcome;

// A connection's bytes, handed out at most `step` at a time; `used` says
// how many were consumed.
struct Wire {
  std::string bytes;
  size_t step = 4096;
  size_t used = 0;

  ReadSome reader() {
    return [this](char* out, size_t max) {
      const auto n = std::min({max, step, bytes.size() - used});
      std::memcpy(out, bytes.data() + used, n);
      used += n;
      return n;
    };
  }
};

ChunkedBody decode(Wire& w, size_t max = 16384) {
  return read_chunked(w.reader(), max);
}

TEST(Chunked, DecodesChunksAndStopsAtTheEndOfTheBody) {
  for (const size_t step : {size_t{1}, size_t{3}, size_t{4096}}) {
    const std::string next = "GET /next HTTP/1.1\r\n\r\n";
    Wire w{"4\r\n{\"a\"\r\n9;ext=1\r\n:1234567}\r\n0\r\n\r\n" + next, step};
    const auto body = decode(w);
    ASSERT_EQ(body.outcome, Outcome::Whole) << body.why;
    EXPECT_EQ(body.data, "{\"a\":1234567}");
    EXPECT_EQ(w.bytes.substr(w.used), next) << "the next request is left where it was";
  }
}

TEST(Chunked, DropsTrailerFields) {
  Wire w{"2\r\n{}\r\n0\r\nX-Checksum: abc\r\nX-Other:\r\n\r\n"};
  const auto body = decode(w);
  ASSERT_EQ(body.outcome, Outcome::Whole) << body.why;
  EXPECT_EQ(body.data, "{}");
  EXPECT_EQ(w.used, w.bytes.size());
}

TEST(Chunked, RefusesWhatRfc9112DoesNotAllow) {
  for (const std::string bad : {
           "0x2\r\n{}\r\n0\r\n\r\n",                     // a C prefix
           "-2\r\n{}\r\n0\r\n\r\n",                      // a sign
           " 2\r\n{}\r\n0\r\n\r\n",                      // a space before the size
           "zz\r\n{}\r\n0\r\n\r\n",                      // not hex
           "2 x\r\n{}\r\n0\r\n\r\n",                     // not an extension
           "fffffffffffffffff\r\n{}\r\n0\r\n\r\n",       // 17 digits
           "2\r\n{}xx\r\n0\r\n\r\n",                     // data longer than its size
           "2\n{}\r\n0\r\n\r\n",                         // a bare LF
           "2\r\n{}\r\n0\r\nContent-Length: 5\r\n\r\n",  // a framing trailer
           "2\r\n{}\r\n0\r\nHost: x\r\n\r\n",            // a routing trailer
           "2\r\n{}\r\n0\r\nno colon\r\n\r\n",           // a trailer that is not a field
           "2\r\n{}\r\n0\r\nX: a\x01\r\n\r\n",           // a control byte in a trailer
           "2;\x01\r\n{}\r\n0\r\n\r\n",                  // a control byte in an extension
       }) {
    Wire w{bad};
    EXPECT_EQ(decode(w).outcome, Outcome::Malformed) << bad;
  }
  Wire long_line{std::string(5000, '1') + "\r\n"};
  EXPECT_EQ(decode(long_line).outcome, Outcome::Malformed);
}

TEST(Chunked, ABodyOverTheLimitIsTooLargeAsSoonAsAChunkSizeSaysSo) {
  Wire w{"ffff\r\n"};  // nothing of the chunk is read
  const auto body = decode(w, 100);
  EXPECT_EQ(body.outcome, Outcome::TooLarge);
  Wire two{"40\r\n" + std::string(64, 'a') + "\r\n40\r\n" + std::string(64, 'b') + "\r\n0\r\n\r\n"};
  EXPECT_EQ(decode(two, 100).outcome, Outcome::TooLarge);
  Wire again{two.bytes};
  EXPECT_EQ(decode(again, 128).outcome, Outcome::Whole);
}

TEST(Chunked, ABodyCutShortIsIncomplete) {
  for (const std::string cut :
       {"", "2", "2\r\n{", "2\r\n{}\r\n", "2\r\n{}\r\n0\r\n", "2\r\n{}\r\n0\r\nX: 1\r\n"}) {
    Wire w{cut};
    EXPECT_EQ(decode(w).outcome, Outcome::Incomplete) << cut;
  }
}

}  // namespace
}  // namespace petstore::http
