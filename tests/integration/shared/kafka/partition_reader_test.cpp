// kafka::PartitionReader against Apache Kafka: one partition in offset
// order, paused and resumed, and never a record handed over twice, even
// when a seek is carried out after the reader has read past its offset.
#include "kafka/partition_reader.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "kafka/producer.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

using namespace std::chrono_literals;

class PartitionReaderTest : public ::testing::Test {
 protected:
  PartitionReaderTest() { create_topic(topic_, 2); }

  void append(const std::string& value) { producer_.append_to({topic_, "k", value, {}}, 1); }

  // What `reader` hands over within `wait` (until a quiet 300 ms).
  static std::vector<std::string> take(kafka::PartitionReader& reader, std::chrono::milliseconds wait = 3s) {
    std::vector<std::string> out;
    const auto until = std::chrono::steady_clock::now() + wait;
    while (std::chrono::steady_clock::now() < until) {
      const auto m = reader.next(300ms);
      if (!m) {
        if (!out.empty()) {
          break;
        }
        continue;
      }
      out.push_back(m->value);
    }
    return out;
  }

  std::string topic_ = unique_name("reader");
  kafka::Producer producer_{kafka::ProducerSettings{Stack::get().kafka_brokers, "partition-reader-test"}};
};

TEST_F(PartitionReaderTest, ReadsOnePartitionInOrderAndResumesWhereTold) {
  for (const auto* v : {"a", "b", "c"}) {
    append(v);
  }
  kafka::PartitionReader reader(Stack::get().kafka_brokers, topic_, 1, RD_KAFKA_OFFSET_BEGINNING);
  EXPECT_EQ(take(reader), (std::vector<std::string>{"a", "b", "c"}));

  // Paused, it fetches nothing; appended meanwhile, read once resumed.
  reader.pause();
  append("d");
  EXPECT_FALSE(reader.next(500ms).has_value());
  reader.resume_at(3);
  EXPECT_EQ(take(reader), (std::vector<std::string>{"d"}));
  EXPECT_EQ(reader.end(5000), 4);
}

// resume_at does not wait for its seek, which the client's main thread
// carries out when it gets to it (a command once waited 5 s on it). A seek
// carried out late sets the fetch back to where the reader was when it was
// resumed; what comes again from there is not handed over a second time.
// Resuming at an offset already read is that late seek, made on purpose.
TEST_F(PartitionReaderTest, RecordsFetchedAgainAfterALateSeekAreNotHandedOverTwice) {
  for (const auto* v : {"a", "b", "c", "d"}) {
    append(v);
  }
  kafka::PartitionReader reader(Stack::get().kafka_brokers, topic_, 1, RD_KAFKA_OFFSET_BEGINNING);
  EXPECT_EQ(take(reader), (std::vector<std::string>{"a", "b", "c", "d"}));
  reader.pause();
  reader.resume_at(1);
  append("e");
  EXPECT_EQ(take(reader), (std::vector<std::string>{"e"}));
}

}  // namespace
}  // namespace petstore::testing
