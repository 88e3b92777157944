// es::PartitionWriter against Apache Kafka: a claim folds what came
// before it; a writer replaced while it was paused is fenced, never
// acknowledges what it appends afterwards, and every reader of the
// partition ignores that record. Last, one pause against today's write
// path (a duplicate version) and against the single writer (fenced).
#include "es/partition_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "es/aggregate_lock.h"
#include "es/errc.h"
#include "es/event_log.h"
#include "redis/pool.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

using namespace std::chrono_literals;

class PartitionWriterTest : public ::testing::Test {
 protected:
  PartitionWriterTest() { create_topic(topic_, 2); }

  es::PartitionWriter writer(const std::string& owner) {
    return {producer_, {Stack::get().kafka_brokers, topic_, 1, owner}};
  }
  static kafka::Record record(const std::string& value) { return {"", "k", value, {}}; }

  // The partition as every reader sees it: the values of the records that
  // count under the epoch rule, and of all records.
  struct Seen {
    std::vector<std::string> counted;
    std::vector<std::string> all;
  };
  Seen read_partition() {
    Seen seen;
    es::EpochRule rule;
    for (const auto& m : read_topic(topic_)) {
      if (m.partition != 1) {
        continue;
      }
      const auto fence = es::fence_headers(m);
      const auto verdict = rule.next(fence);
      if (!fence.claim) {
        seen.all.push_back(m.value);
      }
      if (verdict == es::EpochRule::Verdict::Counts) {
        seen.counted.push_back(m.value);
      }
    }
    return seen;
  }

  std::string topic_ = unique_name("writer");
  kafka::Producer producer_{kafka::ProducerSettings{Stack::get().kafka_brokers, "partition-writer-test"}};
};

TEST_F(PartitionWriterTest, AClaimFoldsTheRecordsBeforeIt) {
  // Written before any claim (epoch 0): they count.
  for (const auto* v : {"a", "b", "c"}) {
    producer_.append_to({topic_, "k", v, {}}, 1);
  }
  auto w = writer("first");
  std::vector<std::string> folded;
  EXPECT_EQ(w.claim([&](const kafka::Message& m) { folded.push_back(m.value); }), 1);
  EXPECT_EQ(folded, (std::vector<std::string>{"a", "b", "c"}));

  auto r = record("d");
  r.topic = topic_;
  EXPECT_EQ(w.append(r).partition, 1);
  EXPECT_EQ(read_partition().counted, (std::vector<std::string>{"a", "b", "c", "d"}));
}

// A delivery report can name an offset that does not hold the record
// (librdkafka's implicit ack: -1001; docs/reliability.md, "A version
// gap"). confirm checks what it reads back there, not only how far.
// A claim folds the partition's whole history, which grows with the log,
// so it may take longer than the read timeout as long as records keep
// coming. With the timeout as a bound on the whole fold, a partition that
// took longer to fold could never be claimed again: every attempt started
// over from the first record (the fault campaign's inventory writers,
// 2026-11-26; docs/reliability.md).
TEST_F(PartitionWriterTest, AClaimWhoseFoldOutlastsTheReadTimeoutStillTakesThePartition) {
  constexpr int kRecords = 25;
  for (int i = 0; i < kRecords; ++i) {
    producer_.append_to({topic_, "k", "r" + std::to_string(i), {}}, 1);
  }
  es::PartitionWriter w(producer_, {Stack::get().kafka_brokers, topic_, 1, "slow", 1s});
  std::vector<std::string> folded;
  // 100 ms a record: 2.5 s of folding, well past the read timeout.
  EXPECT_EQ(w.claim([&](const kafka::Message& m) {
    std::this_thread::sleep_for(100ms);
    folded.push_back(m.value);
  }),
            1);
  ASSERT_EQ(folded.size(), static_cast<size_t>(kRecords));
  EXPECT_EQ(folded.back(), "r" + std::to_string(kRecords - 1));
  auto r = record("after");
  r.topic = topic_;
  EXPECT_EQ(w.append(r).partition, 1);
}

// A fold must start at the partition's first record. A partition whose
// first records are gone (deleted by hand with Kafka's DeleteRecords, or by
// a retention an operator set) fails the claim (kafka::Unavailable) instead
// of folding what is left, which would let the writer decide on part of
// the history.
TEST_F(PartitionWriterTest, AClaimOnAPartitionWhoseFirstRecordsAreGoneFails) {
  for (int i = 0; i < 3; ++i) {
    producer_.append_to({topic_, "k", "r" + std::to_string(i), {}}, 1);
  }
  delete_records_before(topic_, 1, 2);
  auto w = writer("late");
  std::vector<std::string> folded;
  EXPECT_THROW(w.claim([&](const kafka::Message& m) { folded.push_back(m.value); }), kafka::Unavailable);
  EXPECT_TRUE(folded.empty()) << folded.size() << " records folded";
}

TEST_F(PartitionWriterTest, AConfirmAtAnOffsetThatHoldsAnotherRecordIsRefused) {
  auto w = writer("only");
  w.claim([](const kafka::Message&) {});
  auto r = record("mine");
  r.topic = topic_;
  auto sent = w.send(r);
  const auto at = sent.report.wait();
  const auto other = producer_.append_to({topic_, "k", "another", {}}, 1);

  EXPECT_THROW(w.confirm(other.offset, sent.digest), kafka::Unavailable);
  EXPECT_THROW(w.confirm(-1001, sent.digest), kafka::Unavailable);
  EXPECT_NO_THROW(w.confirm(at.offset, sent.digest)) << "its own offset";
}

TEST_F(PartitionWriterTest, AWriterReplacedWhilePausedIsFencedAndItsRecordIgnored) {
  auto old_owner = writer("old");
  ASSERT_EQ(old_owner.claim([](const kafka::Message&) {}), 1);
  auto r = record("old-1");
  r.topic = topic_;
  old_owner.append(r);

  // The old owner stops (a pause past every timeout); a new one claims and
  // folds what the old one wrote.
  auto new_owner = writer("new");
  std::vector<std::string> folded;
  ASSERT_EQ(new_owner.claim([&](const kafka::Message& m) { folded.push_back(m.value); }), 2);
  EXPECT_EQ(folded, (std::vector<std::string>{"old-1"}));

  // The old owner resumes and appends: the broker takes the record (its
  // producer is not transactional, so nothing fences it), but the writer
  // reads the new claim before it and does not acknowledge it.
  r.value = "old-2";
  try {
    old_owner.append(r);
    FAIL() << "a replaced writer acknowledged an append";
  } catch (const es::Error& e) {
    EXPECT_EQ(e.code(), es::Errc::Fenced);
  }
  r.value = "old-3";
  EXPECT_THROW(old_owner.append(r), es::Error) << "fenced for good";

  r.value = "new-1";
  new_owner.append(r);

  const auto seen = read_partition();
  EXPECT_EQ(seen.all, (std::vector<std::string>{"old-1", "old-2", "new-1"}));
  EXPECT_EQ(seen.counted, (std::vector<std::string>{"old-1", "new-1"}));
}

// An idle writer's reader stops fetching (rest_if_idle). Its next
// read-back starts it again where it stopped: it reads its own record back,
// and what others appended while it rested comes first, a claim included.
TEST_F(PartitionWriterTest, ARestedWriterReadsOnFromWhereItStopped) {
  auto w = writer("rests");
  ASSERT_EQ(w.claim([](const kafka::Message&) {}), 1);
  std::vector<std::string> folded;
  const std::function<void(const kafka::Message&)> fold = [&](const kafka::Message& m) {
    folded.push_back(m.value);
  };
  auto r = record("first");
  r.topic = topic_;
  w.rest_if_idle(0ms);
  w.append(r, &fold);
  w.rest_if_idle(1h);  // not idle that long: goes on fetching
  w.rest_if_idle(0ms);
  producer_.append_to({topic_, "k", "from-elsewhere", {{std::string(es::kEpochHeader), "1"}}}, 1);
  r.value = "second";
  w.append(r, &fold);
  EXPECT_EQ(folded, (std::vector<std::string>{"first", "from-elsewhere", "second"}));

  // Another owner claims while this one rests: its next append is fenced.
  w.rest_if_idle(0ms);
  auto other = writer("other");
  ASSERT_EQ(other.claim([](const kafka::Message&) {}), 2);
  r.value = "after-the-claim";
  EXPECT_THROW(w.append(r, &fold), es::Error);
  EXPECT_EQ(read_partition().counted, (std::vector<std::string>{"first", "from-elsewhere", "second"}));
}

TEST_F(PartitionWriterTest, TheLaterOfTwoClaimsWinsAndTheEarlierOwnerIsFenced) {
  auto a = writer("a");
  auto b = writer("b");
  ASSERT_EQ(a.claim([](const kafka::Message&) {}), 1);
  ASSERT_EQ(b.claim([](const kafka::Message&) {}), 2);
  auto r = record("from-a");
  r.topic = topic_;
  EXPECT_THROW(a.append(r), es::Error);
  // a takes the partition back with a claim above b's; now b is fenced.
  ASSERT_EQ(a.claim([](const kafka::Message&) {}), 3);
  r.value = "from-b";
  EXPECT_THROW(b.append(r), es::Error);
  r.value = "from-a-again";
  a.append(r);
  EXPECT_EQ(read_partition().counted, (std::vector<std::string>{"from-a-again"}));
}

// The same pause against today's write path and against the single
// writer: a holder of aggregate X decides version 1, is paused past its
// lease, and appends when it resumes. es::CommandPath::commit checks the
// lease before it appends; the pause here falls just after that check (a
// SIGSTOP can land anywhere), so the append goes out as the holder resumes.
// The duplicate that today's design lets into the log is what issue 13 is
// about; the single writer's fence keeps it out of every reader's log.
struct Versions {
  std::map<std::string, int> counted;  // ce_sequence -> records that count with it
  [[nodiscard]] bool any_duplicate() const {
    return std::ranges::any_of(counted, [](const auto& v) { return v.second > 1; });
  }
};

Versions versions_of(const std::string& topic, std::int32_t partition, const std::string& subject) {
  Versions out;
  es::Fences fences;
  for (const auto& m : read_topic(topic)) {
    if (m.partition != partition || fences.next(m) != es::EpochRule::Verdict::Counts) {
      continue;
    }
    if (m.key == subject) {
      ++out.counted[*m.header("ce_sequence")];
    }
  }
  return out;
}

TEST_F(PartitionWriterTest, TodaysLockLetsAHolderPausedPastItsLeaseAppendADuplicateVersion) {
  redis::Pool pool(Stack::get().redis_endpoint(), 2);
  es::AggregateLock locks(pool, 200ms, 2s);
  es::EventLog log(producer_, "/petstore/pets");
  const auto lock_key = unique_name("lock");
  const es::NewEvent first{topic_, "io.petstore.pet.created", "7", 1, R"({"id":7})", 1};

  const auto a = locks.acquire(lock_key);  // A decides version 1 ...
  std::this_thread::sleep_for(300ms);      // ... and is paused past its lease.
  const auto b = locks.acquire(lock_key);
  EXPECT_TRUE(b.previous_holder_died);
  const auto at = log.append(first);  // B decides version 1 too: nothing of A's is in the log
  locks.release(b);
  log.append(first);  // A resumes
  locks.release(a);

  EXPECT_TRUE(versions_of(topic_, at.position.partition, "7").any_duplicate())
      << "today's design was expected to let the paused holder's duplicate in";
}

TEST_F(PartitionWriterTest, TheSingleWriterFencesAnOwnerPausedPastItsTakeover) {
  auto a = writer("a");
  auto b = writer("b");
  ASSERT_EQ(a.claim([](const kafka::Message&) {}), 1);  // A decides version 1 ...
  // ... and is paused; the group gives its partition to B, whose claim
  // folds the partition (nothing of A's) and decides version 1 too.
  ASSERT_EQ(b.claim([](const kafka::Message&) {}), 2);
  const auto event = [&](const char* value) {
    return kafka::Record{topic_, "7", value, {{"ce_sequence", "0000000000000000001"}}};
  };
  b.append(event("b"));
  EXPECT_THROW(a.append(event("a")), es::Error) << "A resumes: fenced, never acknowledged";

  const auto seen = versions_of(topic_, 1, "7");
  EXPECT_FALSE(seen.any_duplicate());
  EXPECT_EQ(seen.counted, (std::map<std::string, int>{{"0000000000000000001", 1}}));
  EXPECT_EQ(read_partition().all, (std::vector<std::string>{"b", "a"})) << "A's record is in the log, fenced";
}

}  // namespace
}  // namespace petstore::testing
