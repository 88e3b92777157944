// es::Ownership against Apache Kafka: the replicas of a service share
// out a topic's partitions through one consumer group and claim each; when
// one stops, the others claim its partitions and fold them, and the
// writers it still holds are fenced.
#include "es/ownership.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "es/errc.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

using namespace std::chrono_literals;

constexpr int kPartitions = 4;

// Each partition's folded record values. A poll claims partitions side by
// side, so forget() and fold() come from several threads at once; the test
// reads the values between polls, when they are done.
class Folded : public es::Ownership::State {
 public:
  void forget(std::int32_t partition) override {
    const std::lock_guard lock(mutex_);
    values[partition].clear();
    forgotten.push_back(partition);
  }
  void fold(std::int32_t partition, const kafka::Message& m) override {
    const std::lock_guard lock(mutex_);
    values[partition].push_back(m.value);
  }
  std::map<std::int32_t, std::vector<std::string>> values;
  std::vector<std::int32_t> forgotten;  // in order

 private:
  std::mutex mutex_;
};

// A state whose fold of each partition waits (`patience` at most) until
// the folds of all `partitions` have begun: claimed one after another, the
// first fold would wait in vain.
class MeetingFolds : public es::Ownership::State {
 public:
  MeetingFolds(size_t partitions, std::chrono::milliseconds patience)
      : partitions_(partitions), patience_(patience) {}
  void forget(std::int32_t /*partition*/) override {}
  void fold(std::int32_t partition, const kafka::Message& /*m*/) override {
    std::unique_lock lock(mutex_);
    begun_.insert(partition);
    met_.notify_all();
    if (!met_.wait_for(lock, patience_, [&] { return begun_.size() == partitions_; })) {
      alone_ = true;
    }
  }
  // Whether every fold met all the others.
  bool met() {
    const std::lock_guard lock(mutex_);
    return begun_.size() == partitions_ && !alone_;
  }

 private:
  size_t partitions_;
  std::chrono::milliseconds patience_;
  std::mutex mutex_;
  std::condition_variable met_;
  std::set<std::int32_t> begun_;
  bool alone_ = false;
};

class OwnershipTest : public ::testing::Test {
 protected:
  OwnershipTest() { create_topic(topic_, kPartitions); }

  std::unique_ptr<es::Ownership> replica(const std::string& name, es::Ownership::State& state) {
    return std::make_unique<es::Ownership>(
        es::Ownership::Settings{Stack::get().kafka_brokers, group_, topic_, name}, state);
  }

  // Polls every replica until `done` holds (30 s at most).
  template <typename Done>
  bool until(const std::vector<es::Ownership*>& replicas, Done done) {
    const auto give_up = std::chrono::steady_clock::now() + 30s;
    while (std::chrono::steady_clock::now() < give_up) {
      for (auto* r : replicas) {
        r->poll(50ms);
      }
      if (done()) {
        return true;
      }
    }
    return false;
  }

  kafka::Record record(const std::string& value) const { return {topic_, "k", value, {}}; }
  // Sends and commits one record through `w`.
  static void append(es::PartitionWriter& w, const kafka::Record& r) {
    auto sent = w.send(r);
    sent.report.wait();
    w.confirm(sent.transaction);
  }

  std::string topic_ = unique_name("owned");
  std::string group_ = unique_name("writers");
};

TEST_F(OwnershipTest, ReplicasShareThePartitionsAndTakeOverAStoppedOnesWithItsHistory) {
  Folded state_a;
  Folded state_b;
  auto a = replica("a", state_a);
  auto b = replica("b", state_b);

  // Both members of the group, every partition owned by exactly one.
  ASSERT_TRUE(until({a.get(), b.get()},
                    [&] {
                      std::set<std::int32_t> all;
                      for (const auto p : a->owned()) {
                        all.insert(p);
                      }
                      for (const auto p : b->owned()) {
                        all.insert(p);
                      }
                      return !a->owned().empty() && !b->owned().empty() && all.size() == kPartitions &&
                             a->owned().size() + b->owned().size() == kPartitions;
                    }))
      << "a owns " << a->owned().size() << ", b " << b->owned().size();

  // a writes to one of its partitions, then stops; it keeps a writer, as a
  // request in flight would.
  const auto p = a->owned().front();
  const auto zombie = a->writer(p);
  ASSERT_NE(zombie, nullptr);
  append(*zombie, record("before"));
  a.reset();  // leaves the group

  ASSERT_TRUE(until({b.get()}, [&] { return b->owned().size() == kPartitions; }));
  EXPECT_EQ(state_b.values[p], (std::vector<std::string>{"before"})) << "the new owner folds the history";

  // The stopped replica's writer appends after the takeover: fenced by the
  // broker, and the new owner's writes are the ones that count.
  EXPECT_ANY_THROW(append(*zombie, record("after"))) << "a replaced owner acknowledged an append";
  append(*b->writer(p), record("new"));

  // A third replica claiming the partition later folds exactly what was committed.
  es::PartitionWriter c({Stack::get().kafka_brokers, topic_, p, "c"});
  std::vector<std::string> folded;
  c.claim([&](const kafka::Message& m) { folded.push_back(m.value); });
  EXPECT_EQ(folded, (std::vector<std::string>{"before", "new"}));
}

// A replica that stops resigns (es::Ownership::leave) as soon as it has
// answered its requests, while it still runs: its writers go and its folds
// are forgotten at once, and the group hands every partition to the others.
TEST_F(OwnershipTest, AReplicaThatLeavesGivesItsPartitionsUpAtOnceAndClaimsNoneAgain) {
  Folded state_a;
  Folded state_b;
  auto a = replica("a", state_a);
  auto b = replica("b", state_b);
  ASSERT_TRUE(until({a.get(), b.get()}, [&] {
    return !a->owned().empty() && !b->owned().empty() && a->owned().size() + b->owned().size() == kPartitions;
  }));
  const auto p = a->owned().front();
  append(*a->writer(p), record("kept"));
  const auto owned = a->owned();
  state_a.forgotten.clear();

  a->leave();
  EXPECT_TRUE(a->owned().empty());
  EXPECT_EQ(a->writer(p), nullptr) << "a command finds no writer here: NotOwner";
  EXPECT_TRUE(a->settled()) << "none assigned is a share: commands are forwarded, not held";
  EXPECT_EQ(state_a.forgotten, owned) << "every fold of a partition given up is dropped";

  ASSERT_TRUE(until({a.get(), b.get()}, [&] { return b->owned().size() == kPartitions; }));
  EXPECT_TRUE(a->owned().empty()) << "a replica that left claimed again";
  EXPECT_EQ(state_b.values[p], (std::vector<std::string>{"kept"})) << "the new owner folds the history";
}

// A rebalance moves only the partitions that change hands (the
// cooperative-sticky assignor): a member keeps the writers, and so the
// claims and folds, of the partitions it keeps. Under the eager protocol
// every rebalance took every partition away and each was claimed and
// folded again from its first record (docs/reliability.md).
TEST_F(OwnershipTest, AReplicaKeepsTheWritersOfThePartitionsARebalanceLeavesIt) {
  Folded state_a;
  auto a = replica("a", state_a);
  ASSERT_TRUE(until({a.get()}, [&] { return a->owned().size() == kPartitions; }));
  std::map<std::int32_t, std::shared_ptr<es::PartitionWriter>> before;
  for (const auto p : a->owned()) {
    before[p] = a->writer(p);
  }

  Folded state_b;
  auto b = replica("b", state_b);
  ASSERT_TRUE(until({a.get(), b.get()},
                    [&] {
                      return !a->owned().empty() && !b->owned().empty() &&
                             a->owned().size() + b->owned().size() == kPartitions;
                    }))
      << "a owns " << a->owned().size() << ", b " << b->owned().size();
  for (const auto p : a->owned()) {
    EXPECT_EQ(a->writer(p), before[p]) << "partition " << p << " was claimed again";
  }
}

// The partitions a replica is assigned are claimed side by side: taking
// over several partitions with a history takes about as long as the
// longest fold, not all of them one after another (docs/reliability.md).
TEST_F(OwnershipTest, TheNewlyAssignedPartitionsAreClaimedSideBySide) {
  Folded state_a;
  auto a = replica("a", state_a);
  ASSERT_TRUE(until({a.get()}, [&] { return a->owned().size() == kPartitions; }));
  for (const auto p : a->owned()) {
    append(*a->writer(p), record("history"));
  }
  a->leave();

  MeetingFolds state_b(kPartitions, 5s);
  auto b = replica("b", state_b);
  ASSERT_TRUE(until({b.get()}, [&] { return b->owned().size() == kPartitions; }));
  EXPECT_TRUE(state_b.met()) << "a fold waited 5 s for the others to begin: the claims went one at a time";
}

}  // namespace
}  // namespace petstore::testing
