// es::AggregateWriter against Apache Kafka: two replicas share a
// topic's partitions; a command runs only on the owner of its aggregate's
// partition and decides from the owner's fold of that partition; new ids
// come from the fold; when a replica stops, the other takes over its
// aggregates with their state and versions, and the log keeps one event
// per version.
#include "es/aggregate_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "es/errc.h"
#include "es/owner_hints.h"
#include "es/partition_writer.h"
#include "json/event_fields.h"
#include "redis/pool.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

using namespace std::chrono_literals;

constexpr int kPartitions = 4;

// A counter: each event adds n to its total.
struct Added {
  std::int64_t id = 0;
  std::int64_t n = 0;
};

struct CounterTraits {
  struct State {
    std::int64_t total = 0;
  };
  using Event = Added;
  static constexpr std::int64_t kIdClass = 3;

  static Added decode(const events::Envelope& env) {
    if (env.type != "io.test.added") {
      throw std::invalid_argument("not a counter event");
    }
    const json::EventFields f(env.data);
    return {f.integer("id"), f.integer("n")};
  }
  static void evolve(State& s, const Added& e, std::int64_t /*version*/, const std::string& /*time*/) {
    s.total += e.n;
  }
  static es::EventParts parts(const Added& e) {
    return {"io.test.added", R"({"id":)" + std::to_string(e.id) + R"(,"n":)" + std::to_string(e.n) + "}", 1};
  }
};
static_assert(es::AggregateTraits<CounterTraits>);

using Writer = es::AggregateWriter<CounterTraits>;

class AggregateWriterTest : public ::testing::Test {
 protected:
  AggregateWriterTest() { create_topic(topic_, kPartitions); }

  // `linger_ms`: its producers' (PartitionWriter::Settings).
  // `hints_key`: where it records and looks up owners' hints (the
  // replicas' shared one unless given).
  std::unique_ptr<Writer> replica(const std::string& name, int linger_ms = 2,
                                  const std::string& hints_key = {}) {
    hints_.push_back(std::make_unique<es::OwnerHints>(pool_, hints_key.empty() ? hints_key_ : hints_key));
    auto w =
        std::make_unique<Writer>(producer_,
                                 es::OwnerLog::Settings{Stack::get().kafka_brokers, group_, topic_, name,
                                                        "/test/counters", 50ms, "http://" + name, linger_ms},
                                 hints_.back().get());
    w->start();
    return w;
  }

  // Waits (30 s at most) until `replicas` own every partition between them,
  // each some.
  static bool all_owned(const std::vector<Writer*>& replicas) {
    const auto give_up = std::chrono::steady_clock::now() + 30s;
    while (std::chrono::steady_clock::now() < give_up) {
      std::set<std::int32_t> owned;
      size_t claims = 0;
      bool each = true;  // a replica that owns nothing may not have joined yet
      for (auto* r : replicas) {
        const auto o = r->owned();
        owned.insert(o.begin(), o.end());
        claims += o.size();
        each = each && !o.empty();
      }
      if (owned.size() == kPartitions && claims == kPartitions && each) {
        return true;
      }
      std::this_thread::sleep_for(50ms);
    }
    return false;
  }

  // Adds `n` to counter `id` through whichever replica owns it.
  static std::int64_t add(const std::vector<Writer*>& replicas, std::int64_t id, std::int64_t n) {
    for (auto* r : replicas) {
      try {
        const auto done = r->execute(id, [&](const Writer::Current&) { return Added{id, n}; });
        return done.appended.at(0).envelope.version;
      } catch (const es::Error& e) {
        if (e.code() != es::Errc::NotOwner) {
          throw;
        }
      }
    }
    ADD_FAILURE() << "no replica owns counter " << id;
    return 0;
  }

  // Replica "a", owning every partition once the group settles, and a
  // counter it created at version 1: `id`, in partition `p`.
  std::unique_ptr<Writer> alone_with_counter(std::int64_t& id, std::int32_t& p) {
    auto a = replica("a");
    EXPECT_TRUE(all_owned({a.get()}));
    const auto made = a->create("", [](std::int64_t fresh_id) { return Added{fresh_id, 1}; });
    id = made.id;
    p = made.appended.at(0).position.partition;
    return a;
  }

  // Appends `n` to counter `id` at `version` through `writer`: another
  // owner than the replicas, whose claim they did not see.
  void append_as(es::PartitionWriter& writer, std::int64_t id, std::int64_t version, std::int64_t n) {
    events::Envelope env;
    env.id = events::new_event_id();
    env.type = "io.test.added";
    env.source = "/test/counters";
    env.subject = std::to_string(id);
    env.version = version;
    env.time = "2026-11-24T10:00:00.000Z";
    env.data = CounterTraits::parts({id, n}).data;
    auto sent = writer.send(events::to_record(topic_, env));
    sent.report.wait();
    writer.confirm(sent.transaction);
  }

  redis::Pool pool_{Stack::get().redis_endpoint(), 2};
  std::string hints_key_ = unique_name("owners");
  std::vector<std::unique_ptr<es::OwnerHints>> hints_;
  std::string topic_ = unique_name("counters");
  std::string group_ = unique_name("counter-writers");
  kafka::Producer producer_{
      kafka::ProducerSettings{Stack::get().kafka_brokers, "aggregate-writer-test", 2, 5000, ""}};
};

TEST_F(AggregateWriterTest, CommandsRunOnTheOwnerAndDecideFromItsFold) {
  auto a = replica("a");
  auto b = replica("b");
  ASSERT_TRUE(all_owned({a.get(), b.get()}));
  ASSERT_FALSE(a->owned().empty());
  ASSERT_FALSE(b->owned().empty());

  // A command that appends nothing leaves no trace: asking about the
  // highest ids moves no new id towards them.
  for (auto probe = es::kLastFoldedId; probe > es::kLastFoldedId - 64; --probe) {
    try {
      a->execute(probe, [](const Writer::Current& c) {
        EXPECT_EQ(c.version, 0);
        return std::optional<Added>();
      });
    } catch (const es::Error& e) {
      EXPECT_EQ(e.code(), es::Errc::NotOwner);
    }
  }

  // New ids: one kind's class, above the legacy generator's and the clock's
  // floor (es::clock_floor), in a partition the creating replica owns;
  // never the same twice.
  std::set<std::int64_t> ids;
  for (int i = 0; i < 8; ++i) {
    const auto floor = es::clock_floor();
    const auto created = a->create("", [](std::int64_t fresh_id) { return Added{fresh_id, 1}; });
    EXPECT_GE(created.id, floor);
    EXPECT_LT(created.id, es::clock_floor() + 1000);
    EXPECT_EQ(created.id % es::kIdClasses, CounterTraits::kIdClass);
    EXPECT_EQ(created.appended.at(0).envelope.version, 1);
    EXPECT_EQ(created.version, 1);
    EXPECT_EQ(created.state.total, 1);
    EXPECT_TRUE(ids.insert(created.id).second) << created.id;
  }
  const auto id = *ids.begin();

  // A create for a request (an Idempotency-Key's digest) runs on the owner
  // of the request's partition, once: a repeat answers with the aggregate
  // it created, as it is now, and appends nothing.
  // (One whose partition a owns, so b must learn it from the log below.)
  const auto base = unique_name("request");
  std::string request;
  std::int64_t requested = 0;
  for (int i = 0; i < 64 && request.empty(); ++i) {
    try {
      const auto first = a->create(base + std::to_string(i), [](std::int64_t fresh_id) {
        return Added{fresh_id, 7};
      });
      ASSERT_EQ(first.appended.size(), 1U);
      request = base + std::to_string(i);
      requested = first.id;
    } catch (const es::Error& e) {
      ASSERT_EQ(e.code(), es::Errc::NotOwner);
    }
  }
  ASSERT_FALSE(request.empty());
  Writer* request_owner = a.get();
  EXPECT_EQ(add({request_owner}, requested, 3), 2);
  const auto again = request_owner->create(request, [](std::int64_t fresh_id) {
    ADD_FAILURE() << "a repeated request decided again";
    return Added{fresh_id, 7};
  });
  EXPECT_EQ(again.id, requested);
  EXPECT_TRUE(again.appended.empty());
  EXPECT_EQ(again.version, 2);
  EXPECT_EQ(again.state.total, 10);

  // Only the owner runs a command on it; elsewhere the error says where
  // the owner answers (the hint it recorded when it claimed).
  try {
    b->execute(id, [](const Writer::Current&) { return std::optional<Added>(); });
    ADD_FAILURE() << "b ran a command on a's partition";
  } catch (const es::Error& e) {
    EXPECT_EQ(e.code(), es::Errc::NotOwner);
    EXPECT_EQ(e.owner_hint(), "http://a");
  }

  // The decision sees the owner's fold: the total and the version so far.
  EXPECT_EQ(add({a.get()}, id, 10), 2);
  std::int64_t seen_total = -1;
  std::int64_t seen_version = -1;
  a->execute(id, [&](const Writer::Current& c) {
    seen_total = c.state.total;
    seen_version = c.version;
    return std::optional<Added>();
  });
  EXPECT_EQ(seen_total, 11);
  EXPECT_EQ(seen_version, 2);

  // A stops; b claims its partitions, folds them, and carries on.
  a.reset();
  ASSERT_TRUE(all_owned({b.get()}));
  b->execute(id, [&](const Writer::Current& c) {
    seen_total = c.state.total;
    seen_version = c.version;
    return Added{id, 100};
  });
  EXPECT_EQ(seen_total, 11);
  EXPECT_EQ(seen_version, 2);
  for (const auto other : ids) {
    EXPECT_GE(add({b.get()}, other, 1), 2);
  }
  // b's new ids stay above every id the partitions have seen.
  const auto fresh = b->create("", [](std::int64_t fresh_id) { return Added{fresh_id, 1}; });
  EXPECT_FALSE(ids.contains(fresh.id));
  EXPECT_NE(fresh.id, requested);
  // And b knows the request from the log alone (its header), not from a.
  const auto repeated = b->create(request, [](std::int64_t fresh_id) {
    ADD_FAILURE() << "a request created before the takeover decided again";
    return Added{fresh_id, 7};
  });
  EXPECT_EQ(repeated.id, requested);
  EXPECT_TRUE(repeated.appended.empty());
  EXPECT_EQ(repeated.state.total, 10);

  // The log as a read_committed reader sees it: versions 1, 2, 3, ... per counter.
  std::map<std::string, std::vector<std::int64_t>> versions;
  for (const auto& m : read_topic(topic_)) {
    versions[m.key].push_back(events::parse_sequence(*m.header("ce_sequence")));
  }
  EXPECT_EQ(versions[std::to_string(id)], (std::vector<std::int64_t>{1, 2, 3, 4}));
  for (const auto& [key, v] : versions) {
    for (size_t i = 0; i < v.size(); ++i) {
      EXPECT_EQ(v[i], static_cast<std::int64_t>(i) + 1) << key;
    }
  }
}

// Creates with no request stay on one owned partition for
// kCreatesPerPartition in a row, then move to the next, so a burst of
// them shares message sets (es::AggregateWriter::kCreatesPerPartition);
// over many, every owned partition gets its share.
TEST_F(AggregateWriterTest, CreatesStayOnOnePartitionForARunThenMoveToTheNext) {
  auto a = replica("a", 1);
  ASSERT_TRUE(all_owned({a.get()}));
  constexpr auto kRun = Writer::kCreatesPerPartition;
  std::vector<std::int32_t> partitions;
  for (size_t i = 0; i < kPartitions * kRun; ++i) {
    const auto made = a->create("", [](std::int64_t fresh_id) { return Added{fresh_id, 1}; });
    partitions.push_back(made.appended.at(0).position.partition);
  }
  std::map<std::int32_t, size_t> runs;
  for (size_t run = 0; run < kPartitions; ++run) {
    const auto first = partitions[run * kRun];
    ++runs[first];
    for (size_t i = 1; i < kRun; ++i) {
      EXPECT_EQ(partitions[run * kRun + i], first) << "create " << run * kRun + i;
    }
  }
  EXPECT_EQ(runs.size(), static_cast<size_t>(kPartitions)) << "each partition takes one run in turn";
}

// Group commit: a command holds its partition only to decide and send, so
// the commands on one partition decide while earlier ones are still being
// read back, and share that read-back. One aggregate's events still go
// one at a time (each sent once the last has its delivery report).
// Commands that ran one at a time would never overlap; how many overlap
// depends on how long a read-back takes, which Kafka keeps short (it
// answers a fetch as soon as the record is there).
TEST_F(AggregateWriterTest, CommandsOnAPartitionDecideWhileEarlierOnesAreReadBackAndTheLogKeepsEveryVersion) {
  auto a = replica("a");
  ASSERT_TRUE(all_owned({a.get()}));
  // Five counters in partition 0: one hot, four more.
  std::vector<std::int64_t> ids;
  for (std::int64_t id = 1; ids.size() < 5; ++id) {
    if (producer_.partition_for(topic_, std::to_string(id)) == 0) {
      ids.push_back(id);
    }
  }
  const auto hot = ids[0];
  std::mutex mu;
  int decided_not_returned = 0;
  int most_at_once = 0;
  std::map<std::int64_t, int> added;
  std::vector<std::thread> clients;
  clients.reserve(8);
  for (int t = 0; t < 8; ++t) {
    clients.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        const auto id = i % 2 == 0 ? hot : ids[1 + static_cast<size_t>(t) % 4];
        try {
          const auto done = a->execute(id, [&](const Writer::Current&) {
            const std::lock_guard lock(mu);
            most_at_once = std::max(most_at_once, ++decided_not_returned);
            return Added{id, 1};
          });
          EXPECT_EQ(done.appended.size(), 1U);
          const std::lock_guard lock(mu);
          --decided_not_returned;
          ++added[id];
        } catch (const std::exception& e) {
          ADD_FAILURE() << e.what();
          const std::lock_guard lock(mu);
          --decided_not_returned;
        }
      }
    });
  }
  for (auto& c : clients) {
    c.join();
  }
  EXPECT_GE(most_at_once, 2) << "commands on one partition ran one at a time";
  // The fold and the log agree: every counter's total, versions 1..n.
  for (const auto id : ids) {
    std::int64_t total = -1;
    a->execute(id, [&](const Writer::Current& c) {
      total = c.state.total;
      return std::optional<Added>();
    });
    EXPECT_EQ(total, added[id]) << id;
  }
  EXPECT_EQ(added[hot], 40);
  std::map<std::string, std::vector<std::int64_t>> versions;
  for (const auto& m : read_topic(topic_)) {
    versions[m.key].push_back(events::parse_sequence(*m.header("ce_sequence")));
  }
  for (const auto id : ids) {
    const auto& v = versions[std::to_string(id)];
    ASSERT_EQ(v.size(), static_cast<size_t>(added[id])) << id;
    for (size_t i = 0; i < v.size(); ++i) {
      EXPECT_EQ(v[i], static_cast<std::int64_t>(i) + 1) << id;
    }
  }
}

// begin_each: a batch of commands begun at once, as the inventory's mirror
// begins a batch of new pets. Each command's outcome is the one begin()
// one after another would give: commands on several partitions and
// aggregates each append, a second command on one aggregate decides on the
// first's event and follows it in the log, a refusal fails only its own
// command, and a command that decides nothing appends nothing.
TEST_F(AggregateWriterTest, BeginEachGivesEachCommandItsOwnOutcomeAndKeepsOneAggregatesOrder) {
  auto a = replica("a");
  ASSERT_TRUE(all_owned({a.get()}));
  std::vector<Writer::Command> commands;
  std::set<std::int32_t> partitions;
  for (std::int64_t id = 1; id <= 8; ++id) {
    partitions.insert(producer_.partition_for(topic_, std::to_string(id)));
    commands.push_back({id,
                        [id](const Writer::Current& c) {
                          return std::optional(Added{id, 1 + c.state.total});
                        },
                        {}});
  }
  ASSERT_GT(partitions.size(), 1U) << "the batch spans partitions";
  commands.push_back({1,
                      [](const Writer::Current& c) {
                        EXPECT_EQ(c.version, 1) << "decided on the batch's first event of counter 1";
                        return std::optional(Added{1, 10});
                      },
                      {}});
  commands.push_back(
      {9, [](const Writer::Current&) -> std::optional<Added> { throw std::runtime_error("refused"); }, {}});
  commands.push_back({10, [](const Writer::Current&) { return std::optional<Added>(); }, {}});

  auto begun = a->begin_each(commands);
  ASSERT_EQ(begun.size(), commands.size());
  for (std::int64_t id = 1; id <= 8; ++id) {
    auto& b = begun[static_cast<size_t>(id - 1)];
    ASSERT_FALSE(b.failed) << id;
    const auto done = std::move(*b.pending).finish();
    EXPECT_EQ(done.version, 1) << id;
    EXPECT_EQ(done.state.total, 1) << id;
    ASSERT_EQ(done.appended.size(), 1U) << id;
  }
  ASSERT_FALSE(begun[8].failed);
  const auto again = std::move(*begun[8].pending).finish();
  EXPECT_EQ(again.version, 2);
  EXPECT_EQ(again.state.total, 11);
  ASSERT_TRUE(begun[9].failed);
  EXPECT_THROW(std::rethrow_exception(begun[9].failed), std::runtime_error);
  ASSERT_FALSE(begun[10].failed);
  const auto nothing = std::move(*begun[10].pending).finish();
  EXPECT_EQ(nothing.version, 0);
  EXPECT_TRUE(nothing.appended.empty());

  std::map<std::string, std::vector<std::int64_t>> versions;
  for (const auto& m : read_topic(topic_)) {
    versions[m.key].push_back(events::parse_sequence(*m.header("ce_sequence")));
  }
  EXPECT_EQ(versions["1"], (std::vector<std::int64_t>{1, 2}));
  for (std::int64_t id = 2; id <= 8; ++id) {
    EXPECT_EQ(versions[std::to_string(id)], (std::vector<std::int64_t>{1})) << id;
  }
  EXPECT_FALSE(versions.contains("9"));
  EXPECT_FALSE(versions.contains("10"));
}

// A batch across partitions of two owners: the commands on the other
// owner's partitions fail with NotOwner (which a reactor's relay forwards),
// the others are begun.
TEST_F(AggregateWriterTest, BeginEachFailsOnlyTheCommandsOfPartitionsItDoesNotOwn) {
  auto a = replica("a");
  auto b = replica("b");
  ASSERT_TRUE(all_owned({a.get(), b.get()}));
  const auto mine = a->owned();
  ASSERT_FALSE(mine.empty());
  ASSERT_LT(mine.size(), static_cast<size_t>(kPartitions));
  std::vector<Writer::Command> commands;
  for (std::int64_t id = 1; id <= 12; ++id) {
    commands.push_back({id, [id](const Writer::Current&) { return std::optional(Added{id, 1}); }, {}});
  }
  auto begun = a->begin_each(commands);
  for (std::int64_t id = 1; id <= 12; ++id) {
    auto& r = begun[static_cast<size_t>(id - 1)];
    const auto p = producer_.partition_for(topic_, std::to_string(id));
    if (std::find(mine.begin(), mine.end(), p) != mine.end()) {
      ASSERT_FALSE(r.failed) << id;
      EXPECT_EQ(std::move(*r.pending).finish().version, 1) << id;
    } else {
      ASSERT_TRUE(r.failed) << id;
      try {
        std::rethrow_exception(r.failed);
      } catch (const es::Error& e) {
        EXPECT_EQ(e.code(), es::Errc::NotOwner) << id;
      }
    }
  }
}

// A batch waits for ownership to settle once, not once per partition.
// Replica "a" keeps its owners' hints apart from "b"'s, so it never learns
// where b answers: each of b's partitions looks about to change hands, and
// a holds on to it until the settle deadline (3 s), then refuses. The
// whole batch takes one deadline, where holding b's partitions in turn,
// each with a deadline of its own, took one per partition.
TEST_F(AggregateWriterTest, BeginEachWaitsForOwnershipToSettleOnceForTheWholeBatch) {
  auto a = replica("a", 10, unique_name("hints-apart"));
  auto b = replica("b");
  ASSERT_TRUE(all_owned({a.get(), b.get()}));
  const auto theirs = b->owned();
  ASSERT_GE(theirs.size(), 2U) << "the test needs b to own two partitions";
  std::vector<Writer::Command> commands;
  std::set<std::int32_t> covered;
  for (std::int64_t id = 1; covered.size() < theirs.size(); ++id) {
    const auto p = producer_.partition_for(topic_, std::to_string(id));
    if (std::find(theirs.begin(), theirs.end(), p) != theirs.end() && covered.insert(p).second) {
      commands.push_back({id, [id](const Writer::Current&) { return std::optional(Added{id, 1}); }, {}});
    }
  }
  const auto started = std::chrono::steady_clock::now();
  const auto begun = a->begin_each(commands);
  const auto took = std::chrono::steady_clock::now() - started;
  for (const auto& r : begun) {
    ASSERT_TRUE(r.failed);
    EXPECT_THROW(std::rethrow_exception(r.failed), es::Error);
  }
  EXPECT_GE(took, 2900ms) << "a waited for ownership to settle";
  EXPECT_LT(took, 5s) << "a waited for each of b's " << theirs.size() << " partitions in turn";
}

// An owner whose append is not acknowledged gives up its writer: it claims
// the partition anew and folds it again, so it decides on what the log
// holds, not on what it believed.
TEST_F(AggregateWriterTest, AnOwnerFencedByAnotherClaimClaimsAgainAndFoldsWhatTheOtherWrote) {
  std::int64_t id = 0;
  std::int32_t p = 0;
  const auto a = alone_with_counter(id, p);

  // Another writer claims the partition (a replica the group briefly gave
  // it to) and appends version 2.
  es::PartitionWriter other({Stack::get().kafka_brokers, topic_, p, "other"});
  other.claim([](const kafka::Message&) {});
  append_as(other, id, 2, 5);

  EXPECT_ANY_THROW(a->execute(id, [&](const Writer::Current&) {
    return Added{id, 1};
  })) << "a fenced owner's append was acknowledged";

  // a claims the partition again (the group still assigns it to a).
  std::int64_t seen_total = -1;
  std::int64_t seen_version = -1;
  const auto give_up = std::chrono::steady_clock::now() + 30s;
  for (;;) {
    try {
      a->execute(id, [&](const Writer::Current& c) {
        seen_total = c.state.total;
        seen_version = c.version;
        return Added{id, 100};
      });
      break;
    } catch (const es::Error& e) {
      ASSERT_EQ(e.code(), es::Errc::NotOwner);
      ASSERT_LT(std::chrono::steady_clock::now(), give_up);
      std::this_thread::sleep_for(20ms);
    }
  }
  EXPECT_EQ(seen_version, 2) << "the other writer's event is in the fold, a's fenced one is not";
  EXPECT_EQ(seen_total, 6);
}

// The fault campaign's stuck orders: an orders replica paused
// past its session timeout woke still believing it owned its partitions,
// told a relayed stock outcome "no such order" from a fold that lacked
// the order its successor had placed meanwhile, and the reactor dropped
// the outcome. A decision that appends nothing must be shown against the
// partition as it is, not only against the records it rests on.
TEST_F(AggregateWriterTest, AReplacedOwnerRefusesNothingAndChangesNothingOnAFoldThatLacksTheOthersEvents) {
  std::int64_t id = 0;
  std::int32_t p = 0;
  const auto a = alone_with_counter(id, p);
  auto next_unseen = id;  // aggregates of p that only the other writer appends to
  const auto unseen = [&] {
    do {
      ++next_unseen;
    } while (producer_.partition_for(topic_, std::to_string(next_unseen)) != p);
    return next_unseen;
  };

  // Another writer claims the partition behind a's back (the group gave it
  // to another replica while a was paused) and appends version `version`
  // of `aggregate`. Each case starts once a holds p again: a's fold is
  // then a claim older than the other's.
  // A writer claims once: each case's is new.
  std::optional<es::PartitionWriter> other;
  const auto replace_a = [&](std::int64_t aggregate, std::int64_t version) {
    const auto give_up = std::chrono::steady_clock::now() + 30s;
    while (!std::ranges::count(a->owned(), p)) {
      ASSERT_LT(std::chrono::steady_clock::now(), give_up) << "a never claimed partition " << p << " again";
      std::this_thread::sleep_for(20ms);
    }
    other.reset();
    other.emplace(es::PartitionWriter::Settings{Stack::get().kafka_brokers, topic_, p, "other"});
    other->claim([](const kafka::Message&) {});
    append_as(*other, aggregate, version, 5);
  };
  const auto expect_fenced = [&](const char* what, std::int64_t aggregate, const Writer::Decide& decide) {
    try {
      const auto out = a->execute(aggregate, decide);
      ADD_FAILURE() << what << ": answered at version " << out.version << " from a replaced owner's fold";
    } catch (const es::Error& e) {
      EXPECT_EQ(e.code(), es::Errc::Fenced) << what << ": " << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << what << ": refused from a replaced owner's fold (" << e.what() << ")";
    }
  };

  // "No such counter", from a fold that lacks it.
  const auto refused = unseen();
  replace_a(refused, 1);
  expect_fenced("a refusal of an aggregate a never saw", refused,
                [](const Writer::Current& c) -> std::optional<Added> {
                  if (c.version == 0) {
                    throw std::runtime_error("no such counter");
                  }
                  return std::nullopt;
                });
  // Nothing to change, on an aggregate a never saw.
  const auto unchanged = unseen();
  replace_a(unchanged, 1);
  expect_fenced("nothing to change on an aggregate a never saw", unchanged,
                [](const Writer::Current&) { return std::optional<Added>(); });
  // Nothing to change, on an aggregate a knows, at the version a wrote
  // while the log has the other's next one.
  replace_a(id, 2);
  expect_fenced("nothing to change on an aggregate the other changed", id,
                [](const Writer::Current&) { return std::optional<Added>(); });

  // And a, claiming again, knows all three.
  for (const auto& [aggregate, version] :
       {std::pair{refused, 1}, std::pair{unchanged, 1}, std::pair{id, 2}}) {
    std::int64_t seen = -1;
    const auto give_up = std::chrono::steady_clock::now() + 30s;
    while (seen < 0) {
      try {
        a->execute(aggregate, [&](const Writer::Current& c) {
          seen = c.version;
          return std::optional<Added>();
        });
      } catch (const es::Error& e) {
        ASSERT_EQ(e.code(), es::Errc::NotOwner) << e.what();
        ASSERT_LT(std::chrono::steady_clock::now(), give_up);
        std::this_thread::sleep_for(20ms);
      }
    }
    EXPECT_EQ(seen, version) << "counter " << aggregate;
  }
}

}  // namespace
}  // namespace petstore::testing
