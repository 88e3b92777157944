#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <concepts>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "es/errc.h"
#include "es/event_log.h"
#include "es/owner_log.h"
#include "events/envelope.h"
#include "events/kafka_binding.h"
#include "kafka/producer.h"
#include "trace/context.h"

namespace petstore::es {

// What a new event says, apart from where and at which version it goes.
struct EventParts {
  std::string type;
  std::string data;
  int schema_version = 1;
};

// An aggregate kind, as the single writer needs to know it: its events and
// the fold of one aggregate's state (the domain's own evolve).
//   State   one aggregate's state, default-constructible (before its first event)
//   Event   the domain's event
//   decode  the event a record holds; throws std::invalid_argument
//   evolve  folds one event in, at its version and time
//   parts   type, data and schema version of a new event
//   kIdClass  new ids of this kind are kIdClass modulo kIdClasses, so two
//             kinds never share an id (pets, categories, orders)
//   before  (optional) what of a state the write path folds an event from
//             (Outcome::before); the whole state without it
//   reported  (optional) what of a state an Outcome gives (Outcome::state);
//             the whole state without it
//   subject, id_of  (optional) an id as its events' ce_subject, and back;
//             decimal without them (API keys spell theirs in hex)
template <typename T>
concept AggregateTraits = std::default_initializable<typename T::State> &&
    requires(typename T::State& s, const typename T::Event& e, const events::Envelope& env) {
  { T::decode(env) } -> std::same_as<typename T::Event>;
  T::evolve(s, e, std::int64_t{}, std::string{});
  { T::parts(e) } -> std::same_as<EventParts>;
  { T::kIdClass } -> std::convertible_to<std::int64_t>;
};

// New ids: above every id of the legacy generator (time-based, far below
// 2^52) and below 2^53, so JSON numbers hold them exactly.
inline constexpr std::int64_t kFirstFoldedId = std::int64_t{1} << 52;
inline constexpr std::int64_t kLastFoldedId = (std::int64_t{1} << 53) - 1;
inline constexpr std::int64_t kIdClasses = 4;

// The lowest id a create may take now: kFirstFoldedId plus 1024 per
// millisecond since kSince, which stays below kLastFoldedId for over a
// century. A new id is above both the partition's highest and this floor,
// so a log that lost its last records (docs/consistency.md, "Losses")
// cannot make its owner hand their ids out again: they were taken at an
// earlier floor. Ids of one kind take every kIdClasses-th value, so only
// a partition creating faster than 1024 / kIdClasses ids a millisecond
// runs ahead of its floor.
inline std::int64_t clock_floor() {
  constexpr auto kSince = std::chrono::sys_days{std::chrono::year{2026} / std::chrono::January / 1};
  const auto now =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now() - kSince)
          .count();
  return kFirstFoldedId + std::max<std::int64_t>(now, 0) * 1024;
}

// The single writer of one aggregate kind's topic (docs/consistency.md):
// commands run on the replica that owns the aggregate's partition, decide
// from the state that replica folded from the partition itself (never from
// Redis), and append through the partition's transactional writer. The
// write path every service shares:
// hold the partition, read the folded state, decide, send, fold in.
//
// Group commit (docs/performance.md, "Levers"). A command holds its partition only
// to decide and send; its event is folded in at once, so the next command
// on the partition decides on it without waiting for the log, and the
// events sent meanwhile travel to the broker and are committed together.
// What keeps the log a valid sequence:
//   - one aggregate has one event on its way at a time: a command on an
//     aggregate whose last event has no delivery report yet waits for it,
//     so no record can land after one of the same aggregate that failed
//     (librdkafka keeps order within a partition, but a failed record does
//     not stop the ones after it);
//   - a command that appends is answered only once its transaction is
//     committed; one that appends nothing (a refusal, a change already
//     made, an aggregate that does not exist) only once what it decided on
//     is committed and the partition holds nothing this writer did not
//     write (PartitionWriter::confirm_current): a replica that was paused
//     while another took its partitions over decides on a fold that lacks
//     what the other appended, and the broker fences only its appends;
//   - a record without a delivery report, or a transaction not committed,
//     gives up the writer (release_partition): the fold, which holds it,
//     is dropped and built again from the log by the next claim.
template <AggregateTraits Traits>
class AggregateWriter final : public Ownership::State {
 public:
  using AggregateState = typename Traits::State;
  using Event = typename Traits::Event;

  // An aggregate as its owner folded it: version 0 and a default state
  // before its first event.
  struct Current {
    const AggregateState& state;
    std::int64_t version;
  };
  // What a command decides: the event to append, or none; throws a domain
  // error to refuse. One event at most: an aggregate has one on its way.
  using Decide = std::function<std::optional<Event>(const Current&)>;

  AggregateWriter(kafka::Producer& producer, OwnerLog::Settings settings, OwnerHints* hints = nullptr)
      : log_(producer, std::move(settings), *this, hints) {}
  // The log's thread folds into partitions_, which go before log_ does
  // (a use after free ASan found at a replica's stop).
  ~AggregateWriter() override { log_.stop(); }
  AggregateWriter(const AggregateWriter&) = delete;
  AggregateWriter& operator=(const AggregateWriter&) = delete;

  // Connects: learns the partitions, joins the group, claims its share.
  void start() {
    const auto n = static_cast<size_t>(log_.open());
    partitions_.resize(n);
    std::vector<std::condition_variable>(n).swap(changed_);
    log_.start();
  }

  // What a command did: the aggregate's id, its state and version after
  // the command (as its owner folded them), the events appended (none
  // when the command changed nothing, or repeated a create), and the state
  // they were decided on, which the write path folds them from
  // (projection::OwnEvents).
  struct Outcome {
    std::int64_t id = 0;
    AggregateState state{};
    std::int64_t version = 0;
    std::vector<Appended> appended;
    AggregateState before{};
  };

  // A command past its delivery report: its event is in the log, in a
  // transaction not committed yet, and the aggregate's next command may be
  // decided. finish() commits it (with whatever else the transaction
  // holds) and gives the outcome, throwing as execute() does; a command
  // that appended nothing is finished already.
  class Pending {
   public:
    explicit Pending(Outcome done) : out_(std::move(done)) {}
    Pending(OwnerLog::Held held, Outcome out, events::Envelope envelope, kafka::Position at,
            std::uint64_t transaction)
        : held_(std::move(held)),
          out_(std::move(out)),
          envelope_(std::move(envelope)),
          at_(at),
          transaction_(transaction) {}

    Outcome finish() && {
      if (held_) {
        confirm(*held_, out_.id, transaction_);
        out_.appended.push_back({held_->topic(), std::move(envelope_), at_});
      }
      return std::move(out_);
    }

   private:
    std::optional<OwnerLog::Held> held_;
    Outcome out_;
    events::Envelope envelope_;
    kafka::Position at_;
    std::uint64_t transaction_ = 0;
  };

  // Runs `decide` on aggregate `id` and appends what it decided. Throws
  // es::Error(NotOwner) when another replica owns the aggregate's
  // partition, es::Error(Fenced) or kafka::Unavailable (nothing written)
  // when the append surely did not happen, and es::Error(OutcomeUnknown),
  // naming the aggregate, when it may have (the partition is then claimed
  // anew, which settles the transaction either way).
  Outcome execute(std::int64_t id, const Decide& decide) { return begin(id, decide).finish(); }

  // execute() up to the delivery report of its event (or to its answer,
  // when it appends nothing): the caller may decide the aggregate's next
  // command before it finishes this one, and the two are committed
  // together. A saga step's reactor does (projection::Reaction::begin).
  Pending begin(std::int64_t id, const Decide& decide) { return begin_one({id, decide, {}, {}, {}}); }

  // A command on one aggregate; `request`: see create(). `trace`: the
  // trace its event continues; empty: the thread's (trace::current()).
  struct Command {
    std::int64_t id = 0;
    Decide decide;
    std::string request;
    trace::Context trace{};
    // Empty: a new event, with a fresh ce_id and the time it is sent.
    Identity identity{};
  };
  // What begin_each did with one command: its Pending, or what begin()
  // would have thrown.
  struct Begun {
    std::optional<Pending> pending;
    std::exception_ptr failed;
  };

  // execute() of a command with an identity or a trace of its own.
  Outcome execute(const Command& command) { return begin_one(command).finish(); }

  // What `command`, decided on `current`, would append, as this writer
  // would send it, without sending anything: the outcome execute() would
  // give, its event at current.version + 1; nullopt when it decides
  // nothing. For an event bound to be the same whoever decides it (a
  // name-based identity, decided on a state nothing else may change), which
  // the caller may then apply before it is appended (docs/saga.md).
  std::optional<Outcome> foresee(const Command& command, const Current& current) const {
    auto event = command.decide(current);
    if (!event) {
      return std::nullopt;
    }
    auto parts = Traits::parts(*event);
    const auto version = current.version + 1;
    Outcome out{command.id, reported_of(current.state), version, {}, before_of(current.state, *event)};
    auto envelope =
        new_envelope({log_.topic(), std::move(parts.type), subject_of(command.id), version,
                      std::move(parts.data), parts.schema_version, command.trace, command.identity},
                     log_.source());
    Traits::evolve(out.state, *event, version, envelope.time);
    out.appended.push_back({log_.topic(), std::move(envelope), {}});
    return out;
  }

  // begin() of many commands at once, one result per command, in order.
  // The commands on one partition are decided under one hold of it and
  // their delivery reports awaited together: one wait for them all, on the
  // caller's thread, where begin() of each, side by side, costs a thread,
  // a wait and the wake-ups of both (the inventory's mirror of a batch of
  // new pets). A command on an aggregate with an
  // event on its way, including one sent here by a command before it, is
  // begun after the others, as begin() would (so one aggregate's commands
  // keep their order).
  std::vector<Begun> begin_each(std::span<const Command> commands) {
    std::vector<Begun> out(commands.size());
    std::map<std::int32_t, std::vector<std::size_t>> by_partition;
    for (std::size_t i = 0; i < commands.size(); ++i) {
      by_partition[log_.partition_of(subject_of(commands[i].id))].push_back(i);
    }
    std::vector<std::size_t> left;
    // One wait for ownership to settle, for the whole batch: in a
    // rebalance, each partition's hold would otherwise wait its own.
    const auto settle_until = log_.settle_deadline();
    for (const auto& [p, which] : by_partition) {
      try {
        auto held = log_.hold(p, settle_until);
        attempt_each(held, commands, which, out, left);
      } catch (...) {
        for (const auto i : which) {  // not held (NotOwner): none of them tried
          out[i].failed = std::current_exception();
        }
      }
    }
    std::sort(left.begin(), left.end());
    for (const auto i : left) {
      try {
        out[i].pending.emplace(begin_one(commands[i]));
      } catch (...) {
        out[i].failed = std::current_exception();
      }
    }
    return out;
  }

  // A new aggregate: an id no aggregate of any kind has had, from an owned
  // partition's fold, and `decide` on its empty state.
  //
  // `request` (a digest of the client's Idempotency-Key, or empty) makes
  // the create idempotent against the log, whatever Redis kept: the
  // request's partition is the one its digest hashes to, so every retry
  // reaches the same owner (NotOwner otherwise), and the event carries the
  // digest (kRequestHeader), so the owner's fold knows whether the request
  // already created its aggregate. A repeat then appends nothing and
  // answers with that aggregate as it is now.
  Outcome create(const std::string& request, const std::function<Event(std::int64_t)>& decide) {
    for (;;) {
      auto held = request.empty() ? hold_any() : log_.hold(log_.partition_of(request));
      auto& part = partitions_[static_cast<size_t>(held.partition())];
      std::optional<Pending> out;
      if (const auto it = request.empty() ? part.requests.end() : part.requests.find(request);
          it != part.requests.end()) {
        if (!part.aggregates.contains(it->second)) {  // reserved by a create still asking consent
          throw Error(Errc::RequestInProgress, "this request's create is still running", 1);
        }
        out = attempt(held,
                      {it->second, [](const Current&) { return std::optional<Event>(); }, request, {}, {}});
      } else {
        const auto id = new_id(held, part);
        out = attempt(
            held, {id, [&](const Current&) { return std::optional<Event>(decide(id)); }, request, {}, {}});
      }
      if (out) {
        return std::move(*out).finish();
      }
    }
  }

  // create() of an aggregate that another aggregate must let in first (a
  // pet joins its category, docs/consistency.md): `consent(id)` runs once
  // the new id is chosen, and reserved so no other create takes it, with
  // the partition let go (it may wait for another writer's commit), and
  // throws to refuse; `decide(id)` then runs as create()'s does. A repeated
  // request asks no consent.
  Outcome create(const std::string& request, const std::function<void(std::int64_t)>& consent,
                 const std::function<Event(std::int64_t)>& decide) {
    std::int64_t id = 0;
    {
      auto held = request.empty() ? hold_any() : log_.hold(log_.partition_of(request));
      auto& part = partitions_[static_cast<size_t>(held.partition())];
      if (!request.empty() && part.requests.contains(request)) {
        held.unlock();
        return create(request, decide);
      }
      id = new_id(held, part);
      part.max_id = id;
      if (!request.empty()) {
        part.requests.emplace(request, id);
      }
    }
    try {
      consent(id);
      // On the partition's owner still (NotOwner otherwise), and on an id
      // no aggregate has taken meanwhile: a fold built anew forgets the
      // reservation, and a create after it may have taken the id.
      return execute({id,
                      [&](const Current& current) -> std::optional<Event> {
                        if (current.version != 0) {
                          throw Error(Errc::Lagging, "the new id " + subject_of(id) +
                                                         " was taken while this create waited; nothing was "
                                                         "written, retry");
                        }
                        return decide(id);
                      },
                      request,
                      {},
                      {}});
    } catch (...) {
      // A reservation whose create sent nothing is let go (the id stays
      // taken: nothing else needs it), so the request may be tried again.
      const auto p = log_.partition_of(subject_of(id));
      const auto lock = log_.lock(p);
      auto& part = partitions_[static_cast<size_t>(p)];
      if (const auto it = request.empty() ? part.requests.end() : part.requests.find(request);
          it != part.requests.end() && it->second == id && !part.aggregates.contains(id)) {
        part.requests.erase(it);
      }
      throw;
    }
  }

  // How many creates with no request go to one owned partition before the
  // next takes over. A new aggregate may go to any partition the replica
  // owns (its id is chosen to fit), so creates stick to one for a while,
  // as Kafka's own producer does with records that have no key (the sticky
  // partitioner, KIP-480; KIP-794): the creates sent in one linger then
  // share a request, a message set and a transaction,
  // where one partition after another in turn made every create a message
  // set of its own. Over many creates the partitions fill evenly. 64 did
  // better than 16 and no worse than 256 (docs/performance.md, "Levers").
  static constexpr std::size_t kCreatesPerPartition = 64;

  // Hands this replica's partitions to the others, for good (OwnerLog::resign).
  void resign() { log_.resign(); }

  [[nodiscard]] std::vector<std::int32_t> owned() const { return log_.owned(); }
  // Whether this replica holds its share of the partitions (a rebalance
  // in progress, or a claim not made yet, makes it false).
  [[nodiscard]] bool settled() const { return log_.settled(); }

  // Ownership::State: the partition's fold, under its lock.
  void forget(std::int32_t p) override {
    const auto lock = log_.lock(p);
    auto& part = partitions_[static_cast<size_t>(p)];
    const auto generation = part.generation + 1;
    part = {};
    part.generation = generation;
    changed_[static_cast<size_t>(p)].notify_all();
  }
  void fold(std::int32_t p, const kafka::Message& m) override {
    const auto lock = log_.lock(p);
    fold_record(partitions_[static_cast<size_t>(p)], m);
  }

 private:
  struct Aggregate {
    AggregateState state{};
    std::int64_t version = 0;
    // Its last event is sent and has no delivery report yet.
    bool sending = false;
  };
  struct Partition {
    std::map<std::int64_t, Aggregate> aggregates;
    std::int64_t max_id = 0;  // the highest id the partition has seen
    // Which aggregate each creating request (kRequestHeader) created.
    std::unordered_map<std::string, std::int64_t> requests;
    // Counts forget(): what a command learns after letting go of the lock
    // is kept only if the fold it came from is still the partition's.
    std::uint64_t generation = 0;
  };

  // An aggregate's id as its events' ce_subject and record key: decimal,
  // unless the traits spell their ids otherwise (Traits::subject, read back
  // by Traits::id_of).
  static std::string subject_of(std::int64_t id) {
    if constexpr (requires { Traits::subject(id); }) {
      return Traits::subject(id);
    } else {
      return std::to_string(id);
    }
  }
  static std::int64_t id_of(const events::Envelope& env) {
    if constexpr (requires { Traits::id_of(env.subject); }) {
      return Traits::id_of(env.subject);
    } else {
      return env.aggregate_id();
    }
  }

  // Folds one record that counts into its partition's state; the caller
  // holds the partition's lock.
  static void fold_record(Partition& part, const kafka::Message& m) {
    events::Envelope env;
    std::optional<Event> event;
    try {
      env = events::from_message(m);
      event.emplace(Traits::decode(env));
    } catch (const std::invalid_argument&) {
      return;  // not an event of this kind: the projection skips it alike
    }
    const auto id = id_of(env);
    part.max_id = std::max(part.max_id, id);
    for (const auto& h : m.headers) {
      if (h.name == kRequestHeader) {
        part.requests.emplace(h.value, id);
        break;
      }
    }
    auto& a = part.aggregates[id];
    if (env.version > a.version) {  // a redelivered record changes nothing
      Traits::evolve(a.state, *event, env.version, env.time);
      a.version = env.version;
    }
  }

  // The id a create on the held partition takes: above the partition's
  // highest and the clock's floor, of the kind's class, on the partition.
  std::int64_t new_id(const OwnerLog::Held& held, const Partition& part) const {
    auto id = std::max({part.max_id + 1, kFirstFoldedId, clock_floor()});
    while (id % kIdClasses != Traits::kIdClass || log_.partition_of(subject_of(id)) != held.partition()) {
      ++id;
    }
    if (id > kLastFoldedId) {
      throw std::overflow_error("no id left in " + log_.topic() + "/" + std::to_string(held.partition()));
    }
    return id;
  }

  // An owned partition for a create with no request: kCreatesPerPartition
  // creates in a row on one, then on the next (see there). A replica that
  // owns none (it just joined, or the group is sharing out) takes one in
  // turn of all: held once the group settles it here, or NotOwner with its
  // owner's hint, so the create is forwarded there.
  OwnerLog::Held hold_any() {
    const auto owned = log_.owned();
    if (owned.empty()) {
      if (partitions_.empty()) {
        throw Error(Errc::NotOwner, "the writer of " + log_.topic() + " has not started");
      }
      return log_.hold(static_cast<std::int32_t>(next_create_++ % partitions_.size()));
    }
    return log_.hold(owned[(next_create_++ / kCreatesPerPartition) % owned.size()]);
  }

  // Commits `transaction` (without the lock), giving up the writer when
  // that fails. A commit whose outcome is unknown says so, naming the
  // aggregate `id` a client can look up to learn it.
  // What Outcome::before keeps of the state `event` was decided on: all of
  // it, unless the traits keep less (Traits::before: what folding the event
  // needs, for a state that grows with the aggregate's history).
  static AggregateState before_of(const AggregateState& state, const Event& event) {
    if constexpr (requires { Traits::before(state, event); }) {
      return Traits::before(state, event);
    } else {
      (void)event;
      return state;
    }
  }

  // What Outcome::state keeps of an aggregate's state (Traits::reported).
  static AggregateState reported_of(const AggregateState& state) {
    if constexpr (requires { Traits::reported(state); }) {
      return Traits::reported(state);
    } else {
      return state;
    }
  }

  static void confirm(OwnerLog::Held& held, std::int64_t id, std::uint64_t transaction) {
    try {
      held.confirm(transaction);
    } catch (const kafka::Unavailable& e) {
      give_up(held);
      if (e.possibly_persisted()) {
        throw Error(Errc::OutcomeUnknown, e.what()).with_aggregate(subject_of(id));
      }
      throw;
    } catch (...) {
      give_up(held);
      throw;
    }
  }
  static void give_up(OwnerLog::Held& held) {
    held.relock();
    held.release_partition();
    held.unlock();
  }

  // Confirms a decision that appended nothing against the partition as it
  // is now (without the lock). Another writer's records there give up the
  // writer, as a failed commit does; a broker that does not answer leaves it.
  static void confirm_current(OwnerLog::Held& held) {
    try {
      held.confirm_current();
    } catch (const Error&) {
      give_up(held);
      throw;
    } catch (const kafka::Unavailable& e) {
      if (e.possibly_persisted()) {  // the commit of what the decision rested on
        give_up(held);
      }
      throw;
    }
  }

  // begin() of one command, until it is tried.
  Pending begin_one(const Command& command) {
    const auto p = log_.partition_of(subject_of(command.id));
    for (;;) {
      auto held = log_.hold(p);
      if (auto out = attempt(held, command)) {
        return std::move(*out);
      }
    }
  }

  // One try of `command` on the held partition; nullopt when its
  // aggregate's last event was on its way (after a short wait: the caller
  // holds the partition again, which may have moved meanwhile).
  std::optional<Pending> attempt(OwnerLog::Held& held, const Command& command) {
    const auto p = static_cast<size_t>(held.partition());
    const auto& aggregates = partitions_[p].aggregates;
    if (const auto it = aggregates.find(command.id); it != aggregates.end() && it->second.sending) {
      held.wait(changed_[p], std::chrono::milliseconds(100));
      return std::nullopt;
    }
    std::vector<Begun> out(1);
    std::vector<std::size_t> left;
    attempt_each(held, {&command, 1}, std::vector<std::size_t>{0}, out, left);
    if (out[0].failed) {
      std::rethrow_exception(out[0].failed);
    }
    return std::move(out[0].pending);
  }

  // One try of `commands[i]` for each i of `which`, all on the held
  // partition, in order: each decided, and its event sent and folded in,
  // under the lock; then, without it, the delivery reports awaited
  // together, and a decision that sent nothing confirmed against the
  // partition as it is now (once for all of them). Sets out[i] for each
  // command tried; a command whose aggregate has an event on its way (sent
  // by another thread, or by a command before it here), or that comes after
  // a send the writer refused, goes to `left`, untried. Returns with the
  // lock let go.
  void attempt_each(OwnerLog::Held& held, std::span<const Command> commands,
                    const std::vector<std::size_t>& which, std::vector<Begun>& out,
                    std::vector<std::size_t>& left) {
    const auto p = static_cast<size_t>(held.partition());
    auto& part = partitions_[p];
    struct InFlight {
      std::size_t i;
      OwnerLog::Sending sending;
      Outcome outcome;
    };
    std::vector<InFlight> sent;
    std::vector<std::size_t> unsent;  // appends nothing: answered once confirm_current agrees
    bool refused_send = false;
    for (const auto i : which) {
      const auto& c = commands[i];
      const auto it = part.aggregates.find(c.id);
      if (refused_send || (it != part.aggregates.end() && it->second.sending)) {
        left.push_back(i);
        continue;
      }
      // Nothing is kept of a command that appends nothing: a client asking
      // about ids that do not exist neither grows the fold nor moves the ids.
      std::optional<Event> event;
      try {
        if (it != part.aggregates.end()) {
          event = c.decide(Current{it->second.state, it->second.version});
        } else {
          const Aggregate none{};
          event = c.decide(Current{none.state, none.version});
        }
      } catch (...) {
        out[i].failed = std::current_exception();  // a refusal rests on the fold as much as a change does
        unsent.push_back(i);
        continue;
      }
      if (!event) {
        out[i].pending.emplace(
            it == part.aggregates.end()
                ? Outcome{c.id, {}, 0, {}, {}}
                : Outcome{c.id, reported_of(it->second.state), it->second.version, {}, {}});
        unsent.push_back(i);
        continue;
      }
      auto& a = part.aggregates[c.id];
      const auto version = a.version + 1;
      std::optional<OwnerLog::Sending> sending;
      try {
        auto parts = Traits::parts(*event);
        sending.emplace(held.send({log_.topic(), std::move(parts.type), subject_of(c.id), version,
                                   std::move(parts.data), parts.schema_version, c.trace, c.identity},
                                  c.request));
      } catch (const Error&) {
        held.release_partition();  // fenced: claim anew
        out[i].failed = std::current_exception();
        refused_send = true;
        continue;
      } catch (...) {
        // Not sent (kafka::Unavailable: the producer's queue is full). What
        // was sent before it is still awaited below, so no aggregate is
        // left marked as sending.
        out[i].failed = std::current_exception();
        refused_send = true;
        continue;
      }
      // Folded in at once: the next command on the partition decides on it.
      auto before = before_of(a.state, *event);
      Traits::evolve(a.state, *event, version, sending->envelope.time);
      a.version = version;
      a.sending = true;
      part.max_id = std::max(part.max_id, c.id);
      if (!c.request.empty()) {
        part.requests.emplace(c.request, c.id);
      }
      sent.push_back(
          {i, std::move(*sending), Outcome{c.id, reported_of(a.state), version, {}, std::move(before)}});
    }
    const auto generation = part.generation;
    held.unlock();

    std::vector<std::optional<kafka::Position>> at(sent.size());
    bool failed = false;
    for (std::size_t k = 0; k < sent.size(); ++k) {
      try {
        at[k] = sent[k].sending.sent.report.wait();
      } catch (const kafka::Unavailable& e) {
        // Nothing written only when the transaction can be kept from being
        // committed: a failed report is no proof that the broker lacks the
        // record, and the transaction's commit would show it.
        out[sent[k].i].failed =
            !e.possibly_persisted() && held.doom(sent[k].sending.sent.transaction)
                ? std::current_exception()
                : std::make_exception_ptr(Error(Errc::OutcomeUnknown, e.what())
                                              .with_aggregate(subject_of(commands[sent[k].i].id)));
        failed = true;
      } catch (...) {
        out[sent[k].i].failed = std::current_exception();
        failed = true;
      }
    }
    if (!sent.empty()) {
      held.relock();
      if (part.generation == generation) {
        for (const auto& s : sent) {
          part.aggregates[commands[s.i].id].sending = false;
        }
      }
      changed_[p].notify_all();
      if (failed) {
        // The record may be in the log, in a transaction still open;
        // deciding again on this fold could give its version twice. A new
        // claim settles the transaction, and its fold says what counts.
        held.release_partition();
      }
      held.unlock();
    }
    for (std::size_t k = 0; k < sent.size(); ++k) {
      if (const auto& position = at[k]) {
        out[sent[k].i].pending.emplace(held.share(), std::move(sent[k].outcome),
                                       std::move(sent[k].sending.envelope), *position,
                                       sent[k].sending.sent.transaction);
      }
    }
    if (!unsent.empty()) {
      try {
        confirm_current(held);
      } catch (...) {
        for (const auto i : unsent) {
          out[i].pending.reset();
          out[i].failed = std::current_exception();
        }
      }
    }
  }

  OwnerLog log_;
  std::vector<Partition> partitions_;             // each under its partition's lock (OwnerLog)
  std::vector<std::condition_variable> changed_;  // an aggregate's event got its report; a fold was dropped
  std::atomic<std::size_t> next_create_{0};
};

}  // namespace petstore::es
