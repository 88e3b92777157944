// es::PartitionWriter against Apache Kafka: a claim folds the committed
// records before it; records sent side by side share one transaction; a
// writer whose partition was claimed by another is fenced by the broker,
// and a read_committed reader never sees what it appended afterwards. Last,
// a writer paused past a takeover: nothing of it is seen.
#include "es/partition_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "es/errc.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

using namespace std::chrono_literals;

class PartitionWriterTest : public ::testing::Test {
 protected:
  PartitionWriterTest() { create_topic(topic_, 2); }

  es::PartitionWriter writer(const std::string& owner, std::chrono::milliseconds timeout = 5000ms) {
    return es::PartitionWriter({Stack::get().kafka_brokers, topic_, 1, owner, timeout});
  }
  [[nodiscard]] kafka::Record record(const std::string& value) const { return {topic_, "k", value, {}}; }
  // Sends and commits one record.
  static void append(es::PartitionWriter& w, const kafka::Record& r) {
    auto sent = w.send(r);
    sent.report.wait();
    w.confirm(sent.transaction);
  }
  // Partition 1 as a read_committed consumer sees it.
  [[nodiscard]] std::vector<std::string> committed() const {
    std::vector<std::string> out;
    for (const auto& m : read_topic(topic_)) {
      if (m.partition == 1) {
        out.push_back(m.value);
      }
    }
    return out;
  }

  std::string topic_ = unique_name("writer");
  kafka::Producer producer_{
      kafka::ProducerSettings{Stack::get().kafka_brokers, "partition-writer-test", 2, 5000, ""}};
};

TEST_F(PartitionWriterTest, AClaimFoldsTheRecordsBeforeIt) {
  for (const auto* v : {"a", "b", "c"}) {  // written by a plain producer: committed at once
    producer_.append_to(record(v), 1);
  }
  auto w = writer("first");
  std::vector<std::string> folded;
  w.claim([&](const kafka::Message& m) { folded.push_back(m.value); });
  EXPECT_EQ(folded, (std::vector<std::string>{"a", "b", "c"}));

  append(w, record("d"));
  EXPECT_EQ(committed(), (std::vector<std::string>{"a", "b", "c", "d"}));
  // The next claim folds the transaction's record, past its commit marker.
  auto next = writer("second");
  folded.clear();
  next.claim([&](const kafka::Message& m) { folded.push_back(m.value); });
  EXPECT_EQ(folded, (std::vector<std::string>{"a", "b", "c", "d"}));
}

// Group commit: what is sent before a commit shares its transaction; a
// record sent once the commit is done opens the next one.
TEST_F(PartitionWriterTest, RecordsSentBeforeACommitShareItsTransaction) {
  auto w = writer("batch");
  w.claim([](const kafka::Message&) {});
  auto one = w.send(record("1"));
  auto two = w.send(record("2"));
  EXPECT_EQ(one.transaction, two.transaction);
  EXPECT_TRUE(committed().empty()) << "nothing is visible before the commit";
  w.confirm(two.transaction);
  EXPECT_NO_THROW(w.confirm(one.transaction)) << "committed by the first confirm";
  auto three = w.send(record("3"));
  EXPECT_GT(three.transaction, two.transaction);
  w.confirm(three.transaction);
  EXPECT_EQ(committed(), (std::vector<std::string>{"1", "2", "3"}));
}

// A record whose delivery report failed may still be held by the broker (a
// leader that died after writing it): the writer then keeps its
// transaction from being committed. The transaction's other records, which
// were delivered, are rolled back with it, nothing of it is visible, and the
// writer takes no more records. Once the commit has begun, it can no
// longer promise that.
TEST_F(PartitionWriterTest, ATransactionWithAFailedRecordIsRolledBackNotCommitted) {
  auto w = writer("doomed");
  w.claim([](const kafka::Message&) {});
  auto one = w.send(record("delivered"));
  one.report.wait();
  auto two = w.send(record("reported failed"));
  two.report.wait();
  EXPECT_TRUE(w.doom(two.transaction));
  EXPECT_THROW(w.send(record("after")), es::Error) << "a doomed transaction takes no more records";
  try {
    w.confirm(one.transaction);
    ADD_FAILURE() << "a doomed transaction was committed";
  } catch (const kafka::Unavailable& e) {
    EXPECT_FALSE(e.possibly_persisted()) << e.what();
  }
  EXPECT_TRUE(w.broken());
  auto next = writer("next");
  std::vector<std::string> folded;
  next.claim([&](const kafka::Message& m) { folded.push_back(m.value); });
  EXPECT_TRUE(folded.empty());
  EXPECT_TRUE(committed().empty());
  append(next, record("later"));
  EXPECT_FALSE(next.doom(1)) << "no open transaction: nothing to promise";
  EXPECT_EQ(committed(), (std::vector<std::string>{"later"}));
}

// A fold reads the partition's whole history, which grows with the log, so
// it may outlast the timeout as long as records keep coming.
TEST_F(PartitionWriterTest, AClaimWhoseFoldOutlastsTheTimeoutStillTakesThePartition) {
  constexpr int kRecords = 25;
  for (int i = 0; i < kRecords; ++i) {
    producer_.append_to(record("r" + std::to_string(i)), 1);
  }
  auto w = writer("slow", 1s);
  std::vector<std::string> folded;
  w.claim([&](const kafka::Message& m) {  // 100 ms a record: 2.5 s in all
    std::this_thread::sleep_for(100ms);
    folded.push_back(m.value);
  });
  ASSERT_EQ(folded.size(), static_cast<size_t>(kRecords));
  append(w, record("after"));
  EXPECT_EQ(committed().back(), "after");
}

// A fold must start at the partition's first record: a partition whose
// first records are gone (DeleteRecords, or a retention an operator set)
// fails the claim instead of folding what is left.
TEST_F(PartitionWriterTest, AClaimOnAPartitionWhoseFirstRecordsAreGoneFails) {
  for (int i = 0; i < 3; ++i) {
    producer_.append_to(record("r" + std::to_string(i)), 1);
  }
  delete_records_before(topic_, 1, 2);
  auto w = writer("late");
  std::vector<std::string> folded;
  EXPECT_THROW(w.claim([&](const kafka::Message& m) { folded.push_back(m.value); }), kafka::Unavailable);
  EXPECT_TRUE(folded.empty()) << folded.size() << " records folded";
}

// A claim aborts the transaction its predecessor left open: that record is
// never folded and never seen, and the predecessor's commit fails.
TEST_F(PartitionWriterTest, AClaimAbortsTheTransactionTheLastWriterLeftOpen) {
  auto old_owner = writer("old");
  old_owner.claim([](const kafka::Message&) {});
  append(old_owner, record("kept"));
  auto open = old_owner.send(record("open"));
  open.report.wait();  // in the log, uncommitted

  auto new_owner = writer("new");
  std::vector<std::string> folded;
  new_owner.claim([&](const kafka::Message& m) { folded.push_back(m.value); });
  EXPECT_EQ(folded, (std::vector<std::string>{"kept"}));
  EXPECT_THROW(old_owner.confirm(open.transaction), kafka::Unavailable);
  EXPECT_TRUE(old_owner.broken());
  EXPECT_THROW(old_owner.send(record("later")), es::Error);
  append(new_owner, record("new"));
  EXPECT_EQ(committed(), (std::vector<std::string>{"kept", "new"}));
}

// A decision that appended nothing is confirmed against the partition: a
// writer whose partition another has written to since is told so.
// A decision that appends nothing rests on the owner's fold, which holds
// the events of the writer's last transaction: when that transaction
// failed, the decision is not confirmed (it was answered 2xx, with the
// version of events the log never got), and what broke the writer is what
// every later caller hears, even once another writer has appended.
TEST_F(PartitionWriterTest, ARefusalIsNotConfirmedOnAFoldHoldingATransactionThatFailed) {
  auto a = writer("failed");
  a.claim([](const kafka::Message&) {});
  auto sent = a.send(record("rolled back"));
  sent.report.wait();
  ASSERT_TRUE(a.doom(sent.transaction));
  EXPECT_THROW(a.confirm(sent.transaction), kafka::Unavailable);
  EXPECT_THROW(a.confirm_current(), kafka::Unavailable) << "a decision on events the log never got";
  auto b = writer("next");
  b.claim([](const kafka::Message&) {});
  append(b, record("b1"));
  EXPECT_THROW(a.confirm_current(), kafka::Unavailable) << "what broke the writer first is what it says";
}

// A transaction's marker is counted only once a record of it is handed
// over: a first record the producer refuses leaves the transaction empty,
// and an empty transaction writes no marker, so a single record of another
// writer is still seen.
TEST_F(PartitionWriterTest, ARecordTheProducerRefusesCountsNoMarker) {
  auto w = writer("refused");
  w.claim([](const kafka::Message&) {});
  EXPECT_THROW(w.send(record(std::string(std::size_t{2} * 1024 * 1024, 'x'))), kafka::Unavailable)
      << "a record over message.max.bytes is refused before it is sent";
  producer_.append_to(record("foreign"), 1);
  EXPECT_THROW(w.confirm_current(), es::Error) << "another writer's record went unseen";
}

TEST_F(PartitionWriterTest, ARefusalIsNotConfirmedOnceAnotherWriterHasAppended) {
  auto a = writer("a");
  a.claim([](const kafka::Message&) {});
  append(a, record("a1"));
  EXPECT_NO_THROW(a.confirm_current()) << "only its own records";
  auto b = writer("b");
  b.claim([](const kafka::Message&) {});
  append(b, record("b1"));
  EXPECT_THROW(a.confirm_current(), es::Error);
  EXPECT_TRUE(a.broken());
}

// The records of `subject` in `partition`, by version.
std::map<std::string, int> versions_of(const std::string& topic, std::int32_t partition,
                                       const std::string& subject) {
  std::map<std::string, int> out;  // ce_sequence -> records with it
  for (const auto& m : read_topic(topic)) {
    if (m.partition == partition && m.key == subject) {
      ++out[*m.header("ce_sequence")];
    }
  }
  return out;
}

// With the claims kept in the topic (the design before transactions), A's
// record was in the log for every reader that did not apply our own epoch
// rule; a read_committed consumer saw it. The broker now refuses it.
TEST_F(PartitionWriterTest, AWriterPausedPastATakeoverAppendsNothingAReadCommittedReaderSees) {
  auto a = writer("a");
  auto b = writer("b");
  a.claim([](const kafka::Message&) {});  // A decides version 1 ...
  // ... and is paused; the group gives its partition to B, whose claim
  // folds the partition (nothing of A's) and decides version 1 too.
  b.claim([](const kafka::Message&) {});
  const auto event = [&](const char* value) {
    return kafka::Record{topic_, "7", value, {{"ce_sequence", "0000000000000000001"}}};
  };
  append(b, event("b"));
  EXPECT_ANY_THROW(append(a, event("a"))) << "A resumes: fenced by the broker";

  EXPECT_EQ(versions_of(topic_, 1, "7"), (std::map<std::string, int>{{"0000000000000000001", 1}}));
  EXPECT_EQ(committed(), (std::vector<std::string>{"b"}));
}

}  // namespace
}  // namespace petstore::testing
