// es::OwnerLog against Apache Kafka, below any aggregate: a replica owns
// nothing until it has started and claimed; an append carries the creating
// request it answers; a writer given up (release_partition) is claimed
// anew, and the new claim folds the log again from its start; a log that
// resigned answers commands at once.
#include "es/owner_log.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "es/errc.h"
#include "es/owner_hints.h"
#include "redis/pool.h"
#include "support/eventually.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr int kPartitions = 2;

// What the owner's state is told: each partition's forgets, and the records
// folded since the last one.
class RecordingState : public es::Ownership::State {
 public:
  void forget(std::int32_t partition) override {
    const std::lock_guard lock(mutex_);
    ++forgets_[partition];
    folded_[partition].clear();
  }
  void fold(std::int32_t partition, const kafka::Message& m) override {
    const std::lock_guard lock(mutex_);
    folded_[partition].push_back(m);
  }
  int forgets(std::int32_t partition) {
    const std::lock_guard lock(mutex_);
    return forgets_[partition];
  }
  std::vector<kafka::Message> folded(std::int32_t partition) {
    const std::lock_guard lock(mutex_);
    return folded_[partition];
  }

 private:
  std::mutex mutex_;
  std::map<std::int32_t, int> forgets_;
  std::map<std::int32_t, std::vector<kafka::Message>> folded_;
};

class OwnerLogTest : public ::testing::Test {
 protected:
  OwnerLogTest() { create_topic(topic_, kPartitions); }

  es::OwnerLog::Settings settings() const {
    es::OwnerLog::Settings s;
    s.brokers = Stack::get().kafka_brokers;
    s.group = group_;
    s.topic = topic_;
    s.owner = "owner-log-test";
    s.source = "/test/owner-log";
    s.poll = 50ms;
    return s;
  }

  // Holds partition `p` once this replica owns it (30 s at most): after a
  // release, until the next claim, a hold is refused.
  static es::OwnerLog::Held hold_when_owned(es::OwnerLog& log, std::int32_t p) {
    const auto give_up = Clock::now() + 30s;
    for (;;) {
      try {
        return log.hold(p, Clock::now() + 1s);
      } catch (const es::Error& e) {
        if (e.code() != es::Errc::NotOwner || Clock::now() > give_up) {
          throw;
        }
      }
      std::this_thread::sleep_for(20ms);
    }
  }

  // Appends counter `id`'s event at `version` to partition `p`, answering
  // `request`, and waits until it is committed. Returns its offset.
  std::int64_t append(es::OwnerLog& log, std::int32_t p, std::int64_t id, std::int64_t version,
                      const std::string& request) {
    auto held = hold_when_owned(log, p);
    auto sending = held.send(
        {topic_, "io.test.added", std::to_string(id), version, R"({"id":)" + std::to_string(id) + "}"},
        request);
    held.unlock();
    const auto at = sending.sent.report.wait();
    EXPECT_EQ(at.partition, p);
    held.confirm(sending.sent.transaction);
    return at.offset;
  }

  // Gives up partition `p`'s writer and waits until it is claimed and folded
  // again (30 s at most).
  void release_and_reclaim(es::OwnerLog& log, std::int32_t p) {
    const int before = state_.forgets(p);
    {
      auto held = hold_when_owned(log, p);
      held.release_partition();
    }
    hold_when_owned(log, p);  // a writer again: the claim and its fold are done
    EXPECT_EQ(state_.forgets(p), before + 1) << "one new claim, one fold from the start";
  }

  // The record of partition `p`'s latest fold at `offset`.
  std::optional<kafka::Message> folded_at(std::int32_t p, std::int64_t offset) {
    for (auto& m : state_.folded(p)) {
      if (m.offset == offset) {
        return m;
      }
    }
    return std::nullopt;
  }

  std::string topic_ = unique_name("owner-log");
  std::string group_ = unique_name("owner-log-writers");
  RecordingState state_;
  kafka::Producer producer_{
      kafka::ProducerSettings{Stack::get().kafka_brokers, "owner-log-test", 2, 5000, ""}};
};

TEST_F(OwnerLogTest, ItOwnsNothingUntilItHasStartedAndClaimed) {
  es::OwnerLog log(producer_, settings(), state_);
  try {
    log.hold(0, Clock::now());
    FAIL() << "held a partition of a topic it has not opened";
  } catch (const es::Error& e) {
    EXPECT_EQ(e.code(), es::Errc::NotOwner);
  }
  EXPECT_EQ(log.open(), kPartitions);
  EXPECT_TRUE(log.owned().empty());
  EXPECT_FALSE(log.settled());
  try {
    log.hold(1, Clock::now() + 100ms);
    FAIL() << "held a partition it has not claimed";
  } catch (const es::Error& e) {
    EXPECT_EQ(e.code(), es::Errc::NotOwner);
  }
  EXPECT_EQ(state_.forgets(0) + state_.forgets(1), 0) << "nothing claimed before start()";

  log.start();
  hold_when_owned(log, 0);
  hold_when_owned(log, 1);
  EXPECT_EQ(log.owned(), (std::vector<std::int32_t>{0, 1}));
  // Settled once the poll that claimed both is done, a moment after the
  // second claim lets commands in.
  EXPECT_TRUE(eventually([&] { return log.settled(); }, 5s));
  EXPECT_EQ(state_.forgets(0), 1);
  EXPECT_TRUE(state_.folded(0).empty()) << "an empty partition folds nothing";
}

TEST_F(OwnerLogTest, AWriterGivenUpIsClaimedAnewAndFoldedAgainWithWhatItAppended) {
  es::OwnerLog log(producer_, settings(), state_);
  log.start();
  const auto first = append(log, 0, 7, 1, "request-digest-1");
  const auto without_request = append(log, 0, 8, 1, "");

  // The fold of the new claim holds both records, the first with its request.
  release_and_reclaim(log, 0);
  const auto a = folded_at(0, first);
  const auto b = folded_at(0, without_request);
  ASSERT_TRUE(a && b) << "the new claim's fold lacks what the last writer appended";
  ASSERT_NE(a->header(es::kRequestHeader), nullptr);
  EXPECT_EQ(*a->header(es::kRequestHeader), "request-digest-1");
  EXPECT_EQ(b->header(es::kRequestHeader), nullptr);
  EXPECT_EQ(a->key, "7");
  EXPECT_EQ(a->value, R"({"id":7})");

  // What the new writer appends is folded by the next claim; the other
  // partition was never given up and folded nothing again.
  const auto after = append(log, 0, 7, 2, "");
  release_and_reclaim(log, 0);
  const auto c = folded_at(0, after);
  ASSERT_TRUE(c);
  EXPECT_EQ(state_.folded(0).size(), 3U) << "the three events, nothing else";
  EXPECT_EQ(state_.forgets(1), 1);
}

// A stopping replica resigns (service::serve), yet a command can still reach
// it on a connection not ended yet. It waits for no new owner: the group's
// rebalance can take longer than the settle wait, so waiting
// only held the replica's exit for as long (docs/reliability.md).
TEST_F(OwnerLogTest, AResignedLogAnswersAtOnceWithTheNewOwnersHintIfItHasOne) {
  redis::Pool pool{Stack::get().redis_endpoint(), 1};
  es::OwnerHints hints(pool, unique_name("owners"), 0ms);  // no cache: every lookup reads Redis
  auto s = settings();
  s.url = "http://leaving";
  s.settle_wait = 20s;  // far longer than this test lets a hold take
  es::OwnerLog log(producer_, s, state_, &hints);
  log.start();
  hold_when_owned(log, 0);
  hold_when_owned(log, 1);
  for (int i = 0; i < 100 && (hints.lookup(0) != s.url || hints.lookup(1) != s.url); ++i) {
    std::this_thread::sleep_for(50ms);
  }
  ASSERT_EQ(hints.lookup(0), s.url) << "the owner never said where it answers";

  log.resign();
  EXPECT_TRUE(log.owned().empty());
  // The owner hint a hold of `p` is refused with (NotOwner).
  const auto refusal_hint = [&log](std::int32_t p) -> std::string {
    try {
      log.hold(p);
    } catch (const es::Error& e) {
      EXPECT_EQ(e.code(), es::Errc::NotOwner);
      return e.owner_hint();
    }
    ADD_FAILURE() << "a resigned log held partition " << p;
    return "(held)";
  };
  // No new owner has said where it answers: the hint is still this
  // replica's own, and the command is refused without a hint.
  const auto started = Clock::now();
  EXPECT_EQ(refusal_hint(0), "");
  EXPECT_LT(Clock::now() - started, 2s) << "a resigned log waited for a new owner";

  // Once a new owner has said where it answers, the refusal names it, so
  // the command is forwarded there.
  hints.record(1, "http://staying");
  EXPECT_EQ(refusal_hint(1), "http://staying");
}

}  // namespace
}  // namespace petstore::testing
