// What the local broker (librdkafka 2.0.2's mock cluster in
// tools/kafka-mock-broker) does with transactional producers: the facts the
// single-writer design rests on (docs/consistency.md, "Fencing: what the
// local broker shows"). Each test fails the day the broker program starts
// to behave like a real cluster here, so the design's claims about what
// only a real cluster shows are checked, not remembered.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "kafka/handles.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

// A transactional producer with its transactions initialised.
kafka::HandlePtr transactional(const std::string& id) {
  auto rk = kafka::make_handle(RD_KAFKA_PRODUCER,
                               kafka::make_conf({{"bootstrap.servers", Stack::get().kafka_brokers},
                                                 {"transactional.id", id},
                                                 {"transaction.timeout.ms", "10000"}}));
  const kafka::ErrorPtr e(rd_kafka_init_transactions(rk.get(), 10000));
  EXPECT_EQ(e, nullptr) << rd_kafka_error_string(e.get());
  return rk;
}

// One record in a transaction of its own, committed (or aborted); the
// error of the commit or abort, empty when it succeeded.
std::string write(rd_kafka_t* rk, const std::string& topic, const std::string& value, bool commit = true) {
  if (const kafka::ErrorPtr e(rd_kafka_begin_transaction(rk)); e) {
    return rd_kafka_error_string(e.get());
  }
  // rd_kafka_produceva: the RD_KAFKA_V_* macros cast in C style.
  std::array<rd_kafka_vu_t, 4> vus{};
  vus[0].vtype = RD_KAFKA_VTYPE_TOPIC;
  vus[0].u.cstr = topic.c_str();
  vus[1].vtype = RD_KAFKA_VTYPE_PARTITION;
  vus[1].u.i32 = 0;
  vus[2].vtype = RD_KAFKA_VTYPE_VALUE;
  vus[2].u.mem.ptr = const_cast<char*>(value.data());
  vus[2].u.mem.size = value.size();
  vus[3].vtype = RD_KAFKA_VTYPE_MSGFLAGS;
  vus[3].u.i = RD_KAFKA_MSG_F_COPY;
  if (const kafka::ErrorPtr e(rd_kafka_produceva(rk, vus.data(), vus.size())); e) {
    return rd_kafka_error_string(e.get());
  }
  if (!commit) {
    // Sent and acknowledged first: an abort purges what is still queued,
    // and the point is a record the broker has appended.
    rd_kafka_flush(rk, 10000);
  }
  const kafka::ErrorPtr e(commit ? rd_kafka_commit_transaction(rk, 10000)
                                 : rd_kafka_abort_transaction(rk, 10000));
  return e ? rd_kafka_error_string(e.get()) : "";
}

// The values in the topic's partition 0, as a read_committed consumer
// (librdkafka's default isolation) reads them.
std::vector<std::string> values(const std::string& topic) {
  std::vector<std::string> out;
  read_topic(Stack::get().kafka_brokers, topic, [&out](const rd_kafka_message_t& m) {
    out.emplace_back(static_cast<const char*>(m.payload), m.len);
  });
  return out;
}

TEST(LocalBroker, DoesNotFenceAnOlderProducerWhenANewOneTakesItsTransactionalId) {
  const auto topic = unique_name("fencing");
  create_topic(topic, 1);
  const auto id = unique_name("writer");
  auto old_owner = transactional(id);
  ASSERT_EQ(write(old_owner.get(), topic, "old-1"), "");

  // On a real cluster the new owner's InitProducerId bumps the id's epoch,
  // and the old owner's next Produce or EndTxn fails with PRODUCER_FENCED
  // (KIP-98). librdkafka 2.0.2's mock cluster gives every InitProducerId
  // without a current PID a new PID (src/rdkafka_mock_handlers.c,
  // rd_kafka_mock_pid_new) and leaves the old one valid, so both write.
  auto new_owner = transactional(id);
  ASSERT_EQ(write(new_owner.get(), topic, "new-1"), "");
  EXPECT_EQ(write(old_owner.get(), topic, "old-2"), "") << "the local broker fenced the old producer: "
                                                           "docs/consistency.md must say so";
  ASSERT_EQ(write(new_owner.get(), topic, "new-2"), "");

  EXPECT_EQ(values(topic), (std::vector<std::string>{"old-1", "new-1", "old-2", "new-2"}));
}

TEST(LocalBroker, ShowsAnAbortedTransactionsRecordsToReadCommittedConsumers) {
  const auto topic = unique_name("aborted");
  create_topic(topic, 1);
  auto writer = transactional(unique_name("writer"));
  ASSERT_EQ(write(writer.get(), topic, "committed"), "");
  ASSERT_EQ(write(writer.get(), topic, "aborted", false), "");
  ASSERT_EQ(write(writer.get(), topic, "committed-2"), "");

  // A real cluster writes an abort marker and read_committed consumers skip
  // the aborted record; the mock writes no markers and reports no aborted
  // transactions in its Fetch answers (#Aborted is always 0).
  EXPECT_EQ(values(topic), (std::vector<std::string>{"committed", "aborted", "committed-2"}));
}

}  // namespace
}  // namespace petstore::testing
