#include "kafka/message_frame.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace petstore::kafka {
namespace {

Message sample() {
  Message m;
  m.topic = "petstore.inventory.v1";
  m.partition = 5;
  m.offset = 9'007'199'254'740'993;
  m.key = "42";
  // Any bytes: separators of the frame, NUL, bytes that are not UTF-8.
  static constexpr char kValue[] = "{\"a\":\"1:2,3\"}\0\xff,:";
  m.value = std::string(kValue, sizeof kValue - 1);
  m.headers = {{"ce_type", "io.petstore.inventory.reserved"}, {"petstore_request", ""}, {"", "x"}};
  return m;
}

TEST(MessageFrame, RoundTripsEveryFieldByteForByte) {
  const auto m = sample();
  const auto back = unframe(frame(m));
  EXPECT_EQ(back.topic, m.topic);
  EXPECT_EQ(back.partition, m.partition);
  EXPECT_EQ(back.offset, m.offset);
  EXPECT_EQ(back.key, m.key);
  EXPECT_EQ(back.value, m.value);
  ASSERT_EQ(back.headers.size(), m.headers.size());
  for (size_t i = 0; i < m.headers.size(); ++i) {
    EXPECT_EQ(back.headers[i].name, m.headers[i].name);
    EXPECT_EQ(back.headers[i].value, m.headers[i].value);
  }
}

TEST(MessageFrame, RoundTripsARecordWithNoHeaders) {
  Message m;
  m.topic = "t";
  const auto back = unframe(frame(m));
  EXPECT_EQ(back.topic, "t");
  EXPECT_TRUE(back.headers.empty());
  EXPECT_TRUE(back.value.empty());
}

TEST(MessageFrame, RefusesWhatFrameDoesNotProduce) {
  const auto good = frame(sample());
  for (const std::string& bad : std::vector<std::string>{
           std::string(),                                // nothing
           std::string("1:t,"),                          // no partition
           std::string("1:t,1:0,1:0,0:,0:,4:name,"),     // a header without a value
           std::string("1:t,2:-1,1:0,0:,0:,"),           // a negative partition
           std::string("1:t,10:4294967296,1:0,0:,0:,"),  // a partition out of range
           std::string("1:t,1:0,1:x,0:,0:,"),            // an offset that is no number
           std::string("9:t,1:0,1:0,0:,0:,"),            // a length past the end
           std::string("1:tt1:0,1:0,0:,0:,"),            // no separator
           std::string(":t,1:0,1:0,0:,0:,"),             // no length
           std::string("+1:t,1:0,1:0,0:,0:,"),           // a sign
           std::string("123456789012345678901:t,"),      // a length too long to be ours
           good + "x",                                   // bytes after the last field
           good.substr(0, good.size() - 1),              // cut short
       }) {
    EXPECT_THROW((void)unframe(bad), std::invalid_argument) << bad;
  }
}

TEST(MessageFrame, RefusesMoreHeadersThanTheLimit) {
  Message m;
  m.topic = "t";
  for (size_t i = 0; i <= kMaxFramedHeaders; ++i) {
    m.headers.push_back({"h", "v"});
  }
  EXPECT_THROW((void)unframe(frame(m)), std::invalid_argument);
  m.headers.pop_back();
  EXPECT_EQ(unframe(frame(m)).headers.size(), kMaxFramedHeaders);
}

}  // namespace
}  // namespace petstore::kafka
