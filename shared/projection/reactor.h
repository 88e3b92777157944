#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "kafka/consumer.h"
#include "trace/context.h"
#include "util/thread_cache.h"

namespace petstore::projection {

// What a service does when another aggregate's event arrives: usually a
// command on one of its own aggregates (the saga's steps). Handlers must be
// idempotent, because an event is handled again after a crash or rebalance:
// each decides from its aggregate's state, which records what was done.
class Reaction {
 public:
  virtual ~Reaction() = default;
  // Throwing means "not handled yet": the event is retried, never skipped.
  virtual void handle(const kafka::Message& message) = 0;
  // handle() in two halves, for a reaction whose step appends: begin
  // returns once the next event of the same affinity may be handled (its
  // step's event delivered, es::AggregateWriter::begin), with what is left
  // (the commit), or an empty function when it handled the event in
  // full (the default). The reactor runs what is left before it records
  // the position, in order; if it throws, that event and the ones after
  // it in the group are handled again in full.
  using Rest = std::function<void()>;
  virtual Rest begin(const kafka::Message& message) {
    handle(message);
    return {};
  }

  // begin() of several events at once, each of another affinity, for a
  // reaction whose steps cost less together than side by side (one hold
  // of a partition and one wait for all their delivery reports:
  // es::AggregateWriter::begin_each). The reactor calls it, instead of
  // begin() on a thread per affinity, when begins_together() says so.
  // failed[i]: what begin() of steps[i] threw, or null; `rest` is what is
  // left of all the others, in one function (empty when nothing is).
  struct BegunEach {
    std::vector<std::exception_ptr> failed;
    Rest rest;
  };
  // An event to handle, and the span handling it is (Reactor::step_trace):
  // the events its step appends continue that trace. begin() finds it
  // current on its thread (trace::current()) instead.
  struct Step {
    const kafka::Message* message = nullptr;
    trace::Context trace;
  };
  [[nodiscard]] virtual bool begins_together() const { return false; }
  // By default begin() of each in turn.
  virtual BegunEach begin_each(const std::vector<Step>& steps);

  // How long a batch may gather events under load, for a reaction that
  // begins them together and whose steps no client waits for: the reactor
  // polls no sooner than this after the last batch began, so one batch,
  // and its writer's one transaction, carries what the window brought
  // (docs/performance.md, "Records per transaction"). After a quiet spell
  // the last batch began long ago and an event goes at once. Zero (the
  // default): a batch is whatever the poll finds.
  [[nodiscard]] virtual std::chrono::milliseconds gather() const { return std::chrono::milliseconds::zero(); }

  // Which of the service's aggregates handling `message` may change, as a
  // key: events with one key are handled one after the other in log order,
  // events with different keys side by side. Empty (the default): the
  // event's partition, so one partition's events stay in order.
  virtual std::string affinity(const kafka::Message&) { return {}; }

 protected:
  // handle() for a reaction that overrides begin(): both halves at once.
  void handle_in_full(const kafka::Message& message) {
    if (const auto rest = begin(message)) {
      rest();
    }
  }
};

// A consumer-group member that hands each event, in partition order, to a
// Reaction, reading read_committed, and then commits its position to Kafka
// (the group's committed offsets: where it resumes after a restart or a
// rebalance, whatever Redis holds). Every step is idempotent against the
// log (the Reaction decides from its aggregate's state, folded from the
// log), so an event handled again after a crash changes nothing, and the
// position moves only after the effect. A polled batch's events are grouped by the aggregate they
// may change (Reaction::affinity; by default their partition): a group's
// events are handled one at a time in log order (a saga step holds a lock
// and appends), the groups side by side, or, for a reaction that begins
// them together (Reaction::begins_together), in rounds on the reactor's
// thread. Positions move once the whole batch is handled.
class Reactor {
 public:
  Reactor(const kafka::ConsumerSettings& settings, Reaction& reaction);
  ~Reactor();
  Reactor(const Reactor&) = delete;
  Reactor& operator=(const Reactor&) = delete;

  void start();

  // The span of `group`'s handling of `m`: a child of the trace the event
  // carries (ce_traceparent), or, for an event without a valid one, a trace
  // of its own; derived from the group and the record's position, so the
  // same event handled again is the same span.
  static trace::Context step_trace(const std::string& group, const kafka::Message& m);
  // True once the group has handed this member its first assignment (even an
  // empty one): until every replica has, the group is still forming and
  // events wait unconsumed, so the replica reports itself not ready.
  [[nodiscard]] bool joined() const { return joined_; }

 private:
  void loop();
  using Group = std::vector<const kafka::Message*>;
  // Handles a batch's affinity groups, each on a thread of its own.
  bool handle_side_by_side(const std::vector<Group>& groups);
  // Handles a batch's affinity groups together (Reaction::begins_together):
  // in rounds, the first events of every group begun in one call, then the
  // second ones, and so on; then what is left of each round, in order. A
  // group whose event was not begun, or whose round was not confirmed,
  // goes on from there on a thread of its own (handle_group).
  bool handle_together(const std::vector<Group>& groups);
  // Handles one affinity group's events in log order: each begun as soon
  // as the one before has begun, then what is left of each, in order.
  // False when the reactor stopped, or gave up (until_done), before they
  // were all handled.
  bool handle_group(const Group& events);
  // Runs `step` on `m` until it does not throw; false when the reactor
  // stopped first, or the step kept failing for kGiveBackAfter.
  bool until_done(const kafka::Message& m, const std::function<void()>& step);
  // After a batch was not handled: moves the consumer back to the
  // group's committed positions, so that the batch is polled again. False
  // when the move failed (the committed offsets could not be read, or the
  // seek failed): the loop commits nothing until it succeeds.
  bool give_back(kafka::Consumer& consumer);
  // How long a step may keep failing before its batch is given back.
  // Meanwhile the reactor does not poll, and a member that does not poll
  // holds up every rebalance of its group (up to max.poll.interval.ms):
  // a replica starting, or taking over a dead one's partitions, would wait
  // for a step that may need that very rebalance to succeed.
  static constexpr std::chrono::seconds kGiveBackAfter{5};
  // Commits where the consumer stands (kafka::Consumer::commit_positions).
  void commit(kafka::Consumer& consumer);
  // How long handled positions may wait for a commit while batches keep
  // coming: each commit is an append to the broker's offsets log, and a
  // crash meanwhile only hands the steps since to the next owner again,
  // each a no-op against the log. A quiet poll commits at once.
  static constexpr std::chrono::milliseconds kCommitEvery{500};
  // The most events one poll takes: a saga step's batch, or what a
  // gathering reaction's window brought (Reaction::gather).
  static constexpr std::size_t kBatch = 100;
  static constexpr std::size_t kGatheredBatch = 1000;
  // Waits out what is left of the reaction's gathering window since
  // `last_began`; returns early when the reactor stops.
  void wait_to_gather(std::chrono::steady_clock::time_point last_began) const;
  // One log line per event of a handled batch, in the event's trace.
  void log_handled(const std::vector<kafka::Message>& batch) const;

  kafka::ConsumerSettings settings_;
  Reaction& reaction_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> joined_{false};
  // Where a batch's groups run side by side, kept from batch to batch
  // (only the loop uses it, and ~Reactor joins the loop first).
  util::ThreadCache side_by_side_;
  std::thread thread_;
};

}  // namespace petstore::projection
