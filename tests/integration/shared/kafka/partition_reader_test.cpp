// kafka::PartitionReader against Apache Kafka: one partition in offset
// order, from the offset it is told, read_committed: an aborted
// transaction's records are never handed over, and the position passes the
// transactions' markers up to the partition's last stable offset.
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
  kafka::Producer producer_{
      kafka::ProducerSettings{Stack::get().kafka_brokers, "partition-reader-test", 2, 5000, ""}};
};

TEST_F(PartitionReaderTest, ReadsOnePartitionInOrderFromWhereItIsTold) {
  for (const auto* v : {"a", "b", "c"}) {
    append(v);
  }
  kafka::PartitionReader reader(Stack::get().kafka_brokers, topic_, 1, RD_KAFKA_OFFSET_BEGINNING);
  EXPECT_EQ(take(reader), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(reader.end(5000), 3);
  EXPECT_EQ(reader.position(), 3);
  kafka::PartitionReader from(Stack::get().kafka_brokers, topic_, 1, 1);
  EXPECT_EQ(take(from), (std::vector<std::string>{"b", "c"}));
}

TEST_F(PartitionReaderTest, SkipsAbortedTransactionsAndPassesTheirMarkers) {
  kafka::Producer transactional(
      {Stack::get().kafka_brokers, "partition-reader-test", 2, 5000, unique_name("reader-transactions")});
  transactional.init_transactions(10000);
  const auto in_transaction = [&](const std::string& value) {
    transactional.begin_transaction();
    transactional.send_to({topic_, "k", value, {}}, 1).wait();
  };
  in_transaction("committed");
  transactional.commit_transaction(10000);
  in_transaction("aborted");
  // A second holder of the id aborts the first one's open transaction.
  kafka::Producer second(
      {Stack::get().kafka_brokers, "partition-reader-test", 2, 5000, transactional.transactional_id()});
  second.init_transactions(10000);
  append("plain");

  kafka::PartitionReader reader(Stack::get().kafka_brokers, topic_, 1, RD_KAFKA_OFFSET_BEGINNING);
  const auto end = reader.end(5000);
  EXPECT_EQ(end, 5) << "two records, a marker, one record, a marker: then the plain record";
  EXPECT_EQ(take(reader), (std::vector<std::string>{"committed", "plain"}));
  EXPECT_EQ(reader.position(), 5);
}

}  // namespace
}  // namespace petstore::testing
