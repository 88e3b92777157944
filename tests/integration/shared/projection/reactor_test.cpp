// projection::Reactor against Apache Kafka and Redis: events that may
// change one aggregate (Reaction::affinity) are handled one after the other
// in log order, others side by side; a failing event is retried, never
// skipped; a reaction in two halves (Reaction::begin) begins an event once
// the one before has begun, and finishes them in order; the group's
// committed offsets move past each partition's last handled event, and a
// member that joins later resumes there; a step that keeps failing gives
// its batch back, so that its group can rebalance; a gathering reaction's
// batch holds what its window brought; record_positions (the
// projection's) never moves a position back.
#include "projection/reactor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "es/partition_writer.h"
#include "kafka/group_offsets.h"
#include "kafka/handles.h"
#include "kafka/producer.h"
#include "projection/runner.h"
#include "redis/pool.h"
#include "support/eventually.h"
#include "support/link_proxy.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

using namespace std::chrono_literals;

// Appends `values` to partition `partition` of `topic` in one message set:
// a fetch returns the whole set, so a reactor gets them in one batch. rd_kafka_produce_batch puts them on the
// partition's queue at once (librdkafka v2.0.2 src/rdkafka_msg.c: a fixed
// partition's messages are concatenated in one step), so no linger timer
// can send the first alone; enqueued one by one they were once split on a
// loaded machine ("fast was never handled beside slow").
void produce_together(const std::string& topic, std::int32_t partition,
                      const std::vector<std::string>& values,
                      const std::string& brokers = Stack::get().kafka_brokers) {
  const auto producer = kafka::make_handle(
      RD_KAFKA_PRODUCER, kafka::make_conf({{"bootstrap.servers", brokers}, {"linger.ms", "500"}}));
  const kafka::TopicPtr handle(rd_kafka_topic_new(producer.get(), topic.c_str(), nullptr));
  // The partition known first. Messages produced before its metadata wait on
  // the topic's unassigned queue and move to the partition one at a time when
  // it arrives (rd_kafka_topic_assign_uas, librdkafka v2.0.2 rdkafka_topic.c),
  // and during rd_kafka_flush linger.ms no longer holds them (rdkafka_broker.c,
  // "flushing"), so the first can go out alone, and the batch would then
  // reach the reactor in pieces: a fresh-clone suite at half speed saw that.
  ASSERT_GT(kafka::partition_count(producer.get(), topic, 10000), partition);
  std::vector<rd_kafka_message_t> messages(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    // RD_KAFKA_MSG_F_COPY: librdkafka copies the payload, never writes it.
    messages[i].payload = const_cast<char*>(values[i].data());
    messages[i].len = values[i].size();
    messages[i].key = const_cast<char*>("k");
    messages[i].key_len = 1;
  }
  ASSERT_EQ(rd_kafka_produce_batch(handle.get(), partition, RD_KAFKA_MSG_F_COPY, messages.data(),
                                   static_cast<int>(messages.size())),
            static_cast<int>(messages.size()));
  ASSERT_EQ(rd_kafka_flush(producer.get(), 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
}

// A reactor of a group of its own (or of `group`) reading `topic`, started.
struct Started {
  Started(const std::string& topic, projection::Reaction& reaction,
          std::string group_id = unique_name("reactor"),
          const std::string& brokers = Stack::get().kafka_brokers)
      : group(std::move(group_id)), reactor({brokers, group, "reactor-test", {topic}, 10}, reaction) {
    reactor.start();
  }
  std::string group;
  projection::Reactor reactor;
};

// The group's committed offsets in partitions 0.. of `topic`, once they are
// `expected` (or what they are after 10 s).
std::vector<std::int64_t> committed_once(const std::string& group, const std::string& topic,
                                         const std::vector<std::int64_t>& expected,
                                         const std::string& brokers = Stack::get().kafka_brokers) {
  kafka::GroupOffsets offsets(brokers, group);
  const auto read = [&] {
    std::vector<std::int64_t> out;
    out.reserve(expected.size());
    for (std::size_t p = 0; p < expected.size(); ++p) {
      out.push_back(offsets.committed(topic, static_cast<std::int32_t>(p), 5000));
    }
    return out;
  };
  const auto until = std::chrono::steady_clock::now() + 10s;
  auto committed = read();
  while (committed != expected && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(50ms);
    committed = read();
  }
  return committed;
}

// Records values as "<aggregate>/<n>"; the aggregate is the affinity. The
// first event of aggregate "slow" waits until an event of "fast" has been
// handled, which only happens if the two are handled side by side. Values
// ending in "!" fail once before they are handled.
class Recording : public projection::Reaction {
 public:
  void handle(const kafka::Message& m) override {
    std::unique_lock lock(mutex_);
    if (m.value.ends_with("!") && !failed_.contains(m.value)) {
      failed_[m.value] = true;
      throw std::runtime_error("not yet");
    }
    if (m.value == "slow/1") {
      if (!changed_.wait_for(lock, 10s, [this] { return !handled_["fast"].empty(); })) {
        throw std::runtime_error("fast was never handled beside slow");
      }
    }
    const auto aggregate = m.value.substr(0, m.value.find('/'));
    handled_[aggregate].push_back(m.value);
    ++count_;
    changed_.notify_all();
  }
  std::string affinity(const kafka::Message& m) override { return m.value.substr(0, m.value.find('/')); }

  bool wait_for(size_t n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 30s, [&] { return count_ >= n; });
  }
  std::map<std::string, std::vector<std::string>> handled() {
    const std::lock_guard lock(mutex_);
    return handled_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::vector<std::string>> handled_;
  std::map<std::string, bool> failed_;
  size_t count_ = 0;
};

TEST(Reactor, HandlesEachAggregatesEventsInOrderAndDifferentAggregatesSideBySide) {
  const auto topic = unique_name("reactions");
  create_topic(topic, 2);
  // Both aggregates in one partition, in one batch: only the affinity
  // separates them.
  produce_together(topic, 0, {"slow/1", "slow/2!", "fast/1", "slow/3", "fast/2"});
  produce_together(topic, 1, {"other/1"});

  Recording reaction;
  const Started started(topic, reaction);
  ASSERT_TRUE(reaction.wait_for(6));

  const auto handled = reaction.handled();
  EXPECT_EQ(handled.at("slow"), (std::vector<std::string>{"slow/1", "slow/2!", "slow/3"}));
  EXPECT_EQ(handled.at("fast"), (std::vector<std::string>{"fast/1", "fast/2"}));
  EXPECT_EQ(handled.at("other"), (std::vector<std::string>{"other/1"}));

  // Each partition's committed offset is past its last event, once the batch is done.
  EXPECT_EQ(committed_once(started.group, topic, {5, 1}), (std::vector<std::int64_t>{5, 1}));
}

// A test reaction that notes what it does, in order, for the test to wait
// on and read; the aggregate is the affinity.
class Noting : public projection::Reaction {
 public:
  std::string affinity(const kafka::Message& m) override { return m.value.substr(0, m.value.find('/')); }

  bool wait_for(size_t n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 30s, [&] { return seen_.size() >= n; });
  }
  std::vector<std::string> seen() {
    const std::lock_guard lock(mutex_);
    return seen_;
  }

 protected:
  void note(const std::string& what) {
    const std::lock_guard lock(mutex_);
    seen_.push_back(what);
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> seen_;
};

// A reaction in two halves (Reaction::begin): what is left of each event
// is "finished:<value>"; a value ending in "?" has a rest that fails once.
class TwoHalves : public Noting {
 public:
  void handle(const kafka::Message& m) override { note("handled:" + m.value); }
  Rest begin(const kafka::Message& m) override {
    note("begun:" + m.value);
    return [this, value = m.value] {
      if (value.ends_with("?") && !failed_.contains(value)) {
        failed_[value] = true;
        throw std::runtime_error("not read back");
      }
      note("finished:" + value);
    };
  }

 private:
  std::map<std::string, bool> failed_;  // only the reactor's thread touches it (one group)
};

TEST(Reactor, BeginsAnAggregatesNextEventBeforeTheLastIsFinishedAndHandlesAgainFromARestThatFails) {
  const auto topic = unique_name("reactions");
  create_topic(topic, 1);
  produce_together(topic, 0, {"a/1", "a/2?", "a/3"});

  TwoHalves reaction;
  const Started started(topic, reaction);
  ASSERT_TRUE(reaction.wait_for(6));

  // All three begun before any is finished; a/2's rest fails, so a/2 and
  // a/3 (decided after it) are handled again in full, in order.
  EXPECT_EQ(reaction.seen(), (std::vector<std::string>{"begun:a/1", "begun:a/2?", "begun:a/3", "finished:a/1",
                                                       "handled:a/2?", "handled:a/3"}));
  EXPECT_EQ(committed_once(started.group, topic, {3}), (std::vector<std::int64_t>{3}));
}

// A reaction whose steps are begun together (Reaction::begins_together):
// values ending in "#" fail once in begin_each (as a step another replica
// owns fails with NotOwner there), and the rest of a round holding a value
// ending in "?" fails once. Notes are "<what>:<value>".
class Together : public Noting {
 public:
  void handle(const kafka::Message& m) override { handle_in_full(m); }
  Rest begin(const kafka::Message& m) override {
    note("begun:" + m.value);
    return [this, values = std::vector<std::string>{m.value}] { finish(values); };
  }
  [[nodiscard]] bool begins_together() const override { return true; }
  BegunEach begin_each(const std::vector<Step>& steps) override {
    BegunEach out{std::vector<std::exception_ptr>(steps.size()), {}};
    std::vector<std::string> begun;
    std::string call;
    for (size_t i = 0; i < steps.size(); ++i) {
      const auto& value = steps[i].message->value;
      call += (call.empty() ? "" : " ") + value;
      if (value.ends_with("#") && once(value)) {
        note("refused:" + value);
        out.failed[i] = std::make_exception_ptr(std::runtime_error("another replica's"));
        continue;
      }
      note("together:" + value);
      begun.push_back(value);
    }
    {
      const std::lock_guard lock(mutex_);
      calls_.push_back(call);
    }
    out.rest = [this, begun] { finish(begun); };
    return out;
  }

  // What was noted of aggregate `a`, in order.
  std::vector<std::string> seen(const std::string& a) {
    std::vector<std::string> out;
    for (const auto& s : Noting::seen()) {
      if (s.substr(s.find(':') + 1).starts_with(a + "/")) {
        out.push_back(s);
      }
    }
    return out;
  }
  std::vector<std::string> calls() {
    const std::lock_guard lock(mutex_);
    return calls_;
  }

 private:
  void finish(const std::vector<std::string>& values) {
    for (const auto& v : values) {
      if (v.ends_with("?") && once(v)) {
        throw std::runtime_error("not read back");
      }
    }
    for (const auto& v : values) {
      note("finished:" + v);
    }
  }
  // True the first time it is asked about `value`.
  bool once(const std::string& value) {
    const std::lock_guard lock(mutex_);
    return failed_.insert(value).second;
  }
  std::mutex mutex_;  // calls_ and failed_: the groups that go on by themselves run side by side
  std::vector<std::string> calls_;
  std::set<std::string> failed_;
};

TEST(Reactor, BeginsABatchsAggregatesTogetherInRoundsAndHandlesWhatFailsOnItsOwn) {
  const auto topic = unique_name("reactions");
  create_topic(topic, 1);
  produce_together(topic, 0, {"a/1", "b/1#", "a/2", "c/1", "b/2", "a/3?", "c/2"});

  Together reaction;
  const Started started(topic, reaction);
  ASSERT_TRUE(reaction.wait_for(16));

  // Round by round: the first event of each aggregate, then the second...
  EXPECT_EQ(reaction.calls(), (std::vector<std::string>{"a/1 b/1# c/1", "a/2 c/2", "a/3?"}));
  // b/1# was not begun in its round: b goes on on its own, in order.
  EXPECT_EQ(reaction.seen("b"), (std::vector<std::string>{"refused:b/1#", "begun:b/1#", "begun:b/2",
                                                          "finished:b/1#", "finished:b/2"}));
  // The third round's rest failed: a/3? is handled again on its own; the
  // rounds before it were finished.
  EXPECT_EQ(reaction.seen("a"),
            (std::vector<std::string>{"together:a/1", "together:a/2", "together:a/3?", "finished:a/1",
                                      "finished:a/2", "begun:a/3?", "finished:a/3?"}));
  EXPECT_EQ(reaction.seen("c"),
            (std::vector<std::string>{"together:c/1", "together:c/2", "finished:c/1", "finished:c/2"}));
  EXPECT_EQ(committed_once(started.group, topic, {7}), (std::vector<std::int64_t>{7}));
}

// A reaction whose batches gather (Reaction::gather): notes each event it
// handles alone as "alone:<value>" and each begin_each call as its values.
class Gathering : public Noting {
 public:
  explicit Gathering(std::chrono::milliseconds window) : window_(window) {}
  void handle(const kafka::Message& m) override { note("alone:" + m.value); }
  [[nodiscard]] bool begins_together() const override { return true; }
  [[nodiscard]] std::chrono::milliseconds gather() const override { return window_; }
  BegunEach begin_each(const std::vector<Step>& steps) override {
    std::string call;
    for (const auto& step : steps) {
      call += (call.empty() ? "" : " ") + step.message->value;
    }
    note(call);
    return {std::vector<std::exception_ptr>(steps.size()), {}};
  }

 private:
  std::chrono::milliseconds window_;
};

// Under load a gathering reaction's batch is what its window brought, one
// call for events that came one by one; after a quiet spell an event goes
// at once, without waiting the window out.
TEST(Reactor, AGatheringReactionBeginsWhatItsWindowBroughtInOneBatchAndALoneEventAtOnce) {
  const auto topic = unique_name("reactions");
  create_topic(topic, 1);
  constexpr auto kWindow = 3s;
  Gathering reaction(kWindow);
  const Started started(topic, reaction);
  ASSERT_TRUE(eventually([&] { return started.reactor.joined(); }, 30s));

  const auto producer = kafka::make_handle(
      RD_KAFKA_PRODUCER,
      kafka::make_conf({{"bootstrap.servers", Stack::get().kafka_brokers}, {"linger.ms", "0"}}));
  const kafka::TopicPtr handle(rd_kafka_topic_new(producer.get(), topic.c_str(), nullptr));
  // Each value in a produce request of its own, each delivered before the next.
  const auto produce_one_by_one = [&](const std::vector<std::string>& values) {
    for (const auto& v : values) {
      // RD_KAFKA_MSG_F_COPY: librdkafka copies the payload, never writes it.
      ASSERT_EQ(rd_kafka_produce(handle.get(), 0, RD_KAFKA_MSG_F_COPY, const_cast<char*>(v.data()), v.size(),
                                 nullptr, 0, nullptr),
                0);
      ASSERT_EQ(rd_kafka_flush(producer.get(), 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
    }
  };

  const auto lone_at = std::chrono::steady_clock::now();
  produce_one_by_one({"lone/1"});
  ASSERT_TRUE(reaction.wait_for(1));
  // Far less than the window: the reactor did not wait it out for a lone event.
  EXPECT_LT(std::chrono::steady_clock::now() - lone_at, kWindow * 2 / 3);

  // Ten aggregates' events, one by one, well within the window since the
  // lone event's batch began: one batch, begun together.
  std::vector<std::string> burst;
  burst.reserve(10);
  for (int i = 0; i < 10; ++i) {
    burst.push_back("e" + std::to_string(i) + "/1");
  }
  produce_one_by_one(burst);
  ASSERT_TRUE(reaction.wait_for(2));
  EXPECT_EQ(reaction.seen(),
            (std::vector<std::string>{"alone:lone/1", "e0/1 e1/1 e2/1 e3/1 e4/1 e5/1 e6/1 e7/1 e8/1 e9/1"}));
  EXPECT_EQ(committed_once(started.group, topic, {11}), (std::vector<std::int64_t>{11}));
}

// A member that joins the group later resumes at the committed offsets,
// whatever Redis holds (the reactor keeps nothing there), and past the
// markers of a transaction: its committed offset reaches the partition's
// last stable offset.
TEST(Reactor, ResumesAtTheGroupsCommittedOffsetsPastTransactionMarkers) {
  const auto topic = unique_name("reactions");
  create_topic(topic, 1);
  es::PartitionWriter writer({Stack::get().kafka_brokers, topic, 0, "reactor-test"});
  writer.claim([](const kafka::Message&) {});
  const auto append = [&](const std::vector<std::string>& values) {
    std::uint64_t transaction = 0;
    for (const auto& v : values) {
      auto sent = writer.send({topic, "k", v, {}});
      sent.report.wait();
      transaction = sent.transaction;
    }
    writer.confirm(transaction);
  };
  append({"a/1", "a/2"});
  const auto group = unique_name("reactor");
  {
    Recording reaction;
    const Started started(topic, reaction, group);
    ASSERT_TRUE(reaction.wait_for(2));
    // Two records and the commit marker.
    EXPECT_EQ(committed_once(group, topic, {3}), (std::vector<std::int64_t>{3}));
  }
  append({"a/3"});
  Recording reaction;
  const Started started(topic, reaction, group);
  ASSERT_TRUE(reaction.wait_for(1));
  EXPECT_EQ(committed_once(group, topic, {5}), (std::vector<std::int64_t>{5}));
  EXPECT_EQ(reaction.handled()["a"], (std::vector<std::string>{"a/3"}));
}

// Fails every event while `refusing`; handles them once it is not.
class Refusing : public projection::Reaction {
 public:
  void handle(const kafka::Message& m) override {
    ++attempts;
    if (refusing) {
      throw std::runtime_error("refused");
    }
    const std::lock_guard lock(mutex_);
    handled_.insert(m.value);
  }
  std::set<std::string> handled() {
    const std::lock_guard lock(mutex_);
    return handled_;
  }
  std::atomic<bool> refusing{true};
  std::atomic<int> attempts{0};

 private:
  std::mutex mutex_;
  std::set<std::string> handled_;
};

// A step that keeps failing does not hold up its group: a member that does
// not poll holds every rebalance of its group for up to
// max.poll.interval.ms (five minutes), so the reactor gives the batch back
// (reads it again from the committed positions) and polls. A replica that
// joins meanwhile is given partitions within seconds, and no event is
// skipped.
TEST(Reactor, AStepThatKeepsFailingGivesItsBatchBackSoThatItsGroupCanRebalance) {
  const auto topic = unique_name("reactions");
  create_topic(topic, 2);
  produce_together(topic, 0, {"a/1"});
  produce_together(topic, 1, {"b/1"});
  const auto group = unique_name("reactor");
  Refusing first;
  const Started one(topic, first, group);
  ASSERT_TRUE(eventually([&] { return first.attempts >= 2; }, 30s));

  Refusing second;
  const Started two(topic, second, group);
  EXPECT_TRUE(eventually([&] { return two.reactor.joined(); }, 30s))
      << "a member joining the group waited for the failing step";

  first.refusing = false;
  second.refusing = false;
  EXPECT_EQ(committed_once(group, topic, {1, 1}), (std::vector<std::int64_t>{1, 1}));
  auto handled = first.handled();
  handled.merge(second.handled());
  EXPECT_EQ(handled, (std::set<std::string>{"a/1", "b/1"}));
}

// A give-back that fails (the links to every broker stall across it, so
// the group's committed offsets cannot be read) leaves the consumer past a
// batch whose step has not run: nothing may be committed until the batch is
// given back, however long that takes, so the step runs once the links
// are back.
TEST(Reactor, ABatchNotGivenBackIsNeverCommittedPast) {
  cluster_heal();
  ClusterLinks links;
  const auto& cluster = Stack::get().cluster_brokers;
  const auto topic = unique_name("reactions");
  create_topic(topic, 1, cluster);
  produce_together(topic, 0, {"a/1"}, cluster);
  Refusing reaction;
  const auto group = unique_name("reactor");
  const Started started(topic, reaction, group, Stack::get().cluster_link_brokers);
  ASSERT_TRUE(eventually([&] { return reaction.attempts >= 1; }, 30s));
  // The links stall before the step has failed for kGiveBackAfter (5 s),
  // and stay stalled past the give-back's read of the committed offsets
  // (which waits 10 s).
  std::this_thread::sleep_for(3s);
  links.stall(true);
  std::this_thread::sleep_for(15s);
  links.stall(false);
  reaction.refusing = false;
  EXPECT_TRUE(eventually([&] { return reaction.handled().contains("a/1"); }, 60s))
      << "the batch was committed past without its step";
  EXPECT_EQ(committed_once(group, topic, {1}, cluster), (std::vector<std::int64_t>{1}));
}

// A committed position past the log's end (records the group had handled
// are lost) is no silent reset: the consumer logs an alert and hands the
// partition over again from its start, which an idempotent reaction can
// take.
TEST(Reactor, APositionPastTheLogsEndIsAReplayFromTheStartNotASilentReset) {
  const auto topic = unique_name("reactions");
  create_topic(topic, 1);
  produce_together(topic, 0, {"a/1", "a/2"});
  const auto group = unique_name("reactor");
  commit_group_offset(Stack::get().kafka_brokers, group, topic, 0, 1000);
  Recording reaction;
  const Started started(topic, reaction, group);
  ASSERT_TRUE(reaction.wait_for(2)) << "the reactor never read the partition again";
  EXPECT_EQ(reaction.handled()["a"], (std::vector<std::string>{"a/1", "a/2"}));
  EXPECT_EQ(committed_once(group, topic, {2}), (std::vector<std::int64_t>{2}));
}

// The projection records where it stands past transaction markers with
// record_positions: several partitions in one round trip; a position never
// moves back, and one below where the caller stood (a read model that lost
// what was applied) is left for the caller to replay.
TEST(Projection, RecordsPositionsInOneCallNeverBackAndNeverOverALoss) {
  const auto positions = unique_name("batch-positions");
  redis::Pool pool(Stack::get().redis_endpoint(), 1);
  const auto recorded = [&] { return redis_command({"HMGET", positions, "t:0", "t:3"}); };
  projection::record_positions(pool, positions, {}, {{{"t", 0}, 41}, {{"t", 3}, 7}});
  EXPECT_EQ(recorded(), (std::vector<std::string>{"41", "7"}));

  // Partition 0 behind what is recorded: kept; partition 3 ahead: moved; a
  // 64-bit offset reaches Redis digit for digit.
  projection::record_positions(pool, positions, {{{"t", 0}, 41}, {{"t", 3}, 7}},
                               {{{"t", 0}, 40}, {{"t", 3}, 9007199254740993}});
  EXPECT_EQ(recorded(), (std::vector<std::string>{"41", "9007199254740993"}));

  // The read model lost partition 0: a caller that stood at 41 does not
  // record 50 over the loss.
  redis_command({"HDEL", positions, "t:0"});
  projection::record_positions(pool, positions, {{{"t", 0}, 41}}, {{{"t", 0}, 50}});
  EXPECT_TRUE(redis_command({"HGET", positions, "t:0"}).empty());
  const auto read = projection::recorded_positions(pool, positions, {{"t", 0}, {"t", 3}});
  EXPECT_FALSE(read.contains({"t", 0}));
  EXPECT_EQ(read.at({"t", 3}), 9007199254740993);
}

}  // namespace
}  // namespace petstore::testing
