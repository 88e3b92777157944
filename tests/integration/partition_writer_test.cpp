// es::PartitionWriter against the broker program: a claim folds what came
// before it; a writer replaced while it was paused is fenced, never
// acknowledges what it appends afterwards, and every reader of the
// partition ignores that record.
#include "es/partition_writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "es/errc.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

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
      const auto* claim = m.header(es::kClaimHeader);
      const auto* epoch = m.header(es::kEpochHeader);
      const auto verdict = rule.next(claim ? std::optional<std::string_view>(*claim) : std::nullopt,
                                     epoch ? std::optional<std::string_view>(*epoch) : std::nullopt);
      if (claim == nullptr) {
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

  // The old owner resumes and appends: the broker takes the record (the
  // local broker fences no producer; broker_fencing_test), but the writer
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

}  // namespace
}  // namespace petstore::testing
