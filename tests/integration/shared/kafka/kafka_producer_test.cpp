// kafka::Producer against Apache Kafka's three-node cluster of the suite,
// under real broker loss: a record reported delivered is in the log, at the
// offset its report names, and a fatal error (which Debian's librdkafka
// 2.0.2 raises after some broker losses) leaves a working producer behind.
// The writers answer clients on these reports (es::AggregateWriter).
#include "kafka/producer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/eventually.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

using namespace std::chrono_literals;

// value -> where its report put it (nullopt: reported failed)
using Reports = std::map<std::string, std::optional<kafka::Position>>;

Reports wait_all(std::vector<std::pair<std::string, kafka::Producer::Sent>>& sent) {
  Reports out;
  for (auto& [value, s] : sent) {
    try {
      out[value] = s.wait();
    } catch (const kafka::Unavailable&) {
      out[value] = std::nullopt;
    }
  }
  return out;
}

// Every record reported delivered is in the log at its offset; returns how many were.
int expect_in_log_at_their_offsets(const std::string& topic, const Reports& reports) {
  std::map<std::int64_t, std::string> log;
  read_topic(Stack::get().cluster_brokers, topic, [&](const rd_kafka_message_t& m) {
    log[m.offset] = std::string(static_cast<const char*>(m.payload), m.len);
  });
  int delivered = 0;
  for (const auto& [value, at] : reports) {
    if (!at) {
      continue;
    }
    ++delivered;
    const auto it = log.find(at->offset);
    EXPECT_TRUE(it != log.end() && it->second == value)
        << value << " was reported delivered at offset " << at->offset << ", which holds "
        << (it == log.end() ? std::string("nothing") : it->second);
  }
  return delivered;
}

// Appends until the cluster takes one again (a new leader elected, or the producer rebuilt).
kafka::Position append_eventually(kafka::Producer& producer, const std::string& topic,
                                  const std::string& value) {
  const auto give_up = std::chrono::steady_clock::now() + 60s;
  for (;;) {
    try {
      return producer.append_to({topic, "k", value, {}}, 0);
    } catch (const kafka::Unavailable& e) {
      if (std::chrono::steady_clock::now() > give_up) {
        throw;
      }
      std::this_thread::sleep_for(200ms);
    }
  }
}

// A topic of one partition on the cluster, whole again, a producer of it
// that has written once, and the partition's leader.
class KafkaProducer : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_heal();
    create_topic(topic, 1, Stack::get().cluster_brokers);
    append_eventually(producer, topic, "warm-up");
    leader = cluster_leader(topic, 0);
  }

  std::string topic = unique_name("producer");
  kafka::Producer producer{{Stack::get().cluster_brokers, "kafka-producer-test", 0, 5000, ""}};
  int leader = 0;
};

// The leader of the partition is killed (SIGKILL) with records in flight:
// the idempotent producer retries them on the new leader. Whatever it
// reports delivered is there, at that offset; what it reports failed may or
// may not be (never counted either way by the writers). Then it writes again.
TEST_F(KafkaProducer, ARecordReportedDeliveredIsInTheLogAtItsOffsetAfterItsLeaderIsKilled) {
  // Ten seconds of records, the leader killed after the first: those sent
  // once the cluster has fenced it (its broker session, 6 s) and elected
  // another leader reach the new one within their delivery timeout (5 s).
  constexpr int kRecords = 400;
  constexpr int kKilledAt = 40;
  std::vector<std::pair<std::string, kafka::Producer::Sent>> sent;
  sent.reserve(kRecords);
  int refused = 0;
  for (int i = 0; i < kRecords; ++i) {
    if (i == kKilledAt) {
      cluster_node_kill(leader);
    }
    const auto value = "r" + std::to_string(i);
    try {
      sent.emplace_back(value, producer.send_to({topic, "k", value, {}}, 0));
    } catch (const kafka::Unavailable&) {
      ++refused;  // refused outright (a fatal error's window): never in flight
    }
    std::this_thread::sleep_for(25ms);
  }
  const auto reports = wait_all(sent);
  cluster_node_start(leader);
  const auto after = append_eventually(producer, topic, "after-the-loss");
  Reports with_after = reports;
  with_after["after-the-loss"] = after;
  const int delivered = expect_in_log_at_their_offsets(topic, with_after);
  int before = 0;
  int later = 0;
  for (const auto& [value, at] : reports) {
    (std::stoi(value.substr(1)) < kKilledAt ? before : later) += at ? 1 : 0;
  }
  EXPECT_GE(before, kKilledAt / 2) << "most records sent before the loss were acknowledged";
  EXPECT_GT(later, 0) << "records sent after the loss reached the new leader";
  std::printf(
      "leader %d killed: %d of %d records before the loss and %d of %d after it reported delivered, "
      "%d refused outright; producer rebuilt %d times\n",
      leader, before, kKilledAt, later, kRecords - kKilledAt, refused, producer.rebuilds());
  EXPECT_EQ(delivered, before + later + 1);
}

// A fatal error, with the partition's leader paused (SIGSTOP) so that
// records are in flight and queued: every one of them gets a report in
// bounded time (none hangs), failed unless it was delivered; the producer
// builds a new handle and writes again, and every record reported
// delivered is in the log at its offset.
TEST_F(KafkaProducer, AFatalErrorFailsWhatWasInFlightAndTheProducerIsRebuilt) {
  cluster_node_pause(leader);
  std::vector<std::pair<std::string, kafka::Producer::Sent>> sent;
  sent.reserve(20);
  for (int i = 0; i < 20; ++i) {
    sent.emplace_back("f" + std::to_string(i),
                      producer.send_to({topic, "k", "f" + std::to_string(i), {}}, 0));
  }
  std::this_thread::sleep_for(200ms);
  producer.raise_fatal_error("test: a fatal error with records in flight");
  const auto started = std::chrono::steady_clock::now();
  const auto reports = wait_all(sent);
  const auto took = std::chrono::steady_clock::now() - started;
  cluster_node_resume(leader);

  EXPECT_LT(took, 7s) << "every report comes within the delivery timeout and its lateness";
  // The reports may come from librdkafka's own failing of them, before
  // the poller has built the new handle.
  EXPECT_TRUE(eventually([&] { return producer.rebuilds() == 1; }, 5s)) << producer.rebuilds() << " rebuilds";
  const auto after = append_eventually(producer, topic, "after-the-fatal-error");
  Reports with_after = reports;
  with_after["after-the-fatal-error"] = after;
  expect_in_log_at_their_offsets(topic, with_after);
}

}  // namespace
}  // namespace petstore::testing
