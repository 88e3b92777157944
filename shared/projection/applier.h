#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "es/catch_up.h"
#include "es/event_log.h"
#include "es/key_space.h"
#include "events/envelope.h"
#include "projection/effect.h"
#include "redis/connection.h"
#include "redis/pool.h"
#include "redis/script.h"

namespace petstore::projection {

// What applying a write path's own event to the read model found.
enum class ApplyOutcome {
  Applied,
  Duplicate,  // already applied (by the projection, which got there first)
  Behind,     // an earlier event of the aggregate is not applied yet
};

// One event's effect on a read model, ready for project.lua.
struct Step {
  const es::KeySpace* space = nullptr;  // the read model's positions and ready marker
  std::string key;                      // the aggregate's hash; '' when there is no event to apply
  std::string invalid;                  // why not, when the record is not a valid event
  std::int64_t version = 0;
  // Whether the write path may run it: the read model holds the event
  // already, or the fold started from the event's predecessor. Otherwise the
  // projection has earlier events of the aggregate still to apply.
  bool writer_may_apply = false;
  std::string event;  // in CloudEvents' structured JSON, for the history
  std::vector<Command> writes;
};

// How events reach a read model: read what the fold needs of the aggregates
// they touch (one round trip), fold them with the service's own evolve, and
// write each event's effect with project.lua, atomically with the record's
// position. The projection (apply_batch) and the write path (apply_own)
// share it.
class Applier {
 public:
  virtual ~Applier() = default;

  // Each event's Step, in order; a null envelope (a record that is not a
  // CloudEvent) gets an empty one.
  virtual std::vector<Step> fold(redis::Connection& conn,
                                 const std::vector<const events::Envelope*>& events) = 0;
  // The Applier of the records of `topic`: itself, unless it routes (ByTopic).
  virtual Applier& route(std::string_view /*topic*/) { return *this; }

  // Applies the write path's own event, just acknowledged by the log, and
  // runs `settle` with it, or alone when the event was applied before.
  // Folds it from what Redis holds; a single writer's events are folded
  // from its own state instead (Projection::own_step, OwnEvents).
  ApplyOutcome apply_own(redis::Connection& conn, const events::Envelope& event,
                         const std::vector<Command>& settle = {});
  // Runs steps the write path folded, in one pipeline, each with `settle`;
  // one outcome each ('behind' for a step the read model is not ready for).
  static std::vector<ApplyOutcome> apply_steps(redis::Connection& conn, const std::vector<Step>& steps,
                                               const std::vector<Command>& settle = {});
};

// project.lua, the one script that writes an event's effect.
const redis::Script& project_script();
// Queues project.lua for `step`: at `field` and '<offset>/<previous>' from the
// projection, '' and '' from the write path.
void queue_step(redis::Connection& conn, const Step& step, const std::string& field,
                const std::string& position, const std::vector<Command>& settle = {});

// A service's read model, as Projection folds it. M::State is one
// aggregate's state as the read model holds it; M says which hash holds an
// event's aggregate, how to read that state back, and what a state holds
// in Redis (Record). Evolving is the domain's own fold.
template <typename M>
concept ReadModelFold = requires(const M& m, typename M::State& s, const typename M::Event& e,
                                 const std::vector<const typename M::Event*>& batch,
                                 const events::Envelope& env, std::span<const redis::Reply> replies) {
  { m.space() } -> std::same_as<const es::KeySpace&>;
  // Throws std::invalid_argument when `env` is not a valid event of the model.
  { m.decode(env) } -> std::same_as<typename M::Event>;
  { m.key(e) } -> std::convertible_to<std::string>;
  // The commands that read what folding `batch` (one aggregate's events,
  // in order) needs of the aggregate, and the state their replies hold.
  { m.reads(batch) } -> std::same_as<std::vector<Command>>;
  { m.state(batch, replies) } -> std::same_as<typename M::State>;
  m.evolve(s, e, std::int64_t{}, std::string{});
  { m.record(std::as_const(s), e) } -> std::same_as<Record>;
};

// HMGET `key` `fields`...: a model's read of an aggregate's hash.
Command hmget(const std::string& key, std::span<const std::string_view> fields);
// Runs `reads` in one pipeline; their replies in order.
std::vector<redis::Reply> read_all(redis::Connection& conn, const std::vector<Command>& reads);
// The version a reply to HGET <aggregate> version holds (0 for none).
std::int64_t version_of(const redis::Reply& reply);

template <ReadModelFold M>
class Projection final : public Applier {
 public:
  // How often fold() reads an aggregate whose version keeps moving
  // between its reads before it gives up (the caller retries the batch).
  static constexpr int kReadAttempts = 10;

  explicit Projection(M model) : model_(std::move(model)) {}

  [[nodiscard]] const M& model() const { return model_; }

  // The write path's own event, folded from `state`: the state its single
  // writer decided it on, which is the read model's at the event's
  // predecessor (the same log, the same evolve). No read of Redis:
  // project.lua applies the step only onto that predecessor, and answers
  // 'behind' otherwise. Leaves `state` as the event made it.
  Step own_step(const events::Envelope& envelope, typename M::State& state) const {
    const auto event = model_.decode(envelope);
    Step step;
    step.space = &model_.space();
    step.key = model_.key(event);
    step.version = envelope.version;
    step.writer_may_apply = true;
    step.event = events::to_structured_json(envelope);
    const auto before = model_.record(state, event);
    model_.evolve(state, event, envelope.version, envelope.time);
    step.writes = effect(step.key, envelope.subject, before, model_.record(state, event));
    return step;
  }

  std::vector<Step> fold(redis::Connection& conn,
                         const std::vector<const events::Envelope*>& events) override {
    using Event = typename M::Event;
    struct Aggregate {
      std::string key;
      std::vector<const Event*> events;  // the batch's, in order
      typename M::State state{};
      std::int64_t version = 0;
      bool sound = true;  // every version since the read model's is in the batch
    };
    std::vector<Step> steps(events.size());
    for (auto& s : steps) {
      s.space = &model_.space();
    }
    std::vector<std::optional<Event>> decoded(events.size());
    std::vector<std::size_t> of(events.size());
    std::vector<Aggregate> aggregates;
    std::map<std::string, std::size_t, std::less<>> by_key;
    for (std::size_t i = 0; i < events.size(); ++i) {
      if (events[i] == nullptr) {
        continue;
      }
      try {
        decoded[i] = model_.decode(*events[i]);
      } catch (const std::invalid_argument& e) {
        steps[i].invalid = e.what();
        continue;
      }
      std::string key = model_.key(*decoded[i]);
      const auto [it, added] = by_key.try_emplace(key, aggregates.size());
      if (added) {
        aggregates.emplace_back().key = std::move(key);
      }
      of[i] = it->second;
      aggregates[it->second].events.push_back(&*decoded[i]);
    }
    // Each aggregate's version is read before and after its fields: Redis
    // serves other clients between the parts of a long pipeline, and a
    // write path's apply there would leave fields newer than the version,
    // which the fold would then apply an event to twice. A version that
    // moved takes the reads again (project.lua bumps it with every write).
    std::vector<Command> reads;
    std::vector<std::size_t> counts;
    for (const auto& a : aggregates) {
      reads.push_back({"HGET", a.key, "version"});
      auto more = model_.reads(a.events);
      counts.push_back(more.size());
      reads.insert(reads.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
      reads.push_back({"HGET", a.key, "version"});
    }
    for (int attempt = 1;; ++attempt) {
      const auto replies = read_all(conn, reads);
      bool torn = false;
      for (std::size_t j = 0, at = 0; j < aggregates.size(); at += 2 + counts[j], ++j) {
        torn = torn || version_of(replies[at]) != version_of(replies[at + 1 + counts[j]]);
      }
      if (torn && attempt < kReadAttempts) {
        continue;
      }
      if (torn) {
        throw std::runtime_error("the read model kept changing under the projection's reads");
      }
      for (std::size_t j = 0, at = 0; j < aggregates.size(); at += 2 + counts[j], ++j) {
        auto& a = aggregates[j];
        a.version = version_of(replies[at]);
        a.state = model_.state(a.events, std::span(replies).subspan(at + 1, counts[j]));
      }
      break;
    }
    for (std::size_t i = 0; i < events.size(); ++i) {
      if (!decoded[i]) {
        continue;
      }
      auto& a = aggregates[of[i]];
      const auto& event = *decoded[i];
      const auto& envelope = *events[i];
      auto& step = steps[i];
      step.key = a.key;
      step.version = envelope.version;
      step.event = events::to_structured_json(envelope);
      if (envelope.version <= a.version) {
        step.writer_may_apply = true;  // applied already: project.lua finds it so
        continue;
      }
      a.sound = a.sound && envelope.version == a.version + 1;
      step.writer_may_apply = a.sound;
      const auto before = model_.record(a.state, event);
      model_.evolve(a.state, event, envelope.version, envelope.time);
      step.writes = effect(a.key, envelope.subject, before, model_.record(a.state, event));
      a.version = envelope.version;
    }
    return steps;
  }

 private:
  M model_;
};

// Routes each record to the Applier of its topic: one pipeline can then carry
// the records of several read models (a service's own and the key registry;
// petstore-audit's rebuild of them all). A record of a topic with no
// Applier is a programming error.
class ByTopic final : public Applier {
 public:
  void add(const std::string& topic, Applier& applier) { routes_[topic] = &applier; }
  Applier& route(std::string_view topic) override;
  std::vector<Step> fold(redis::Connection& conn,
                         const std::vector<const events::Envelope*>& events) override;

 private:
  std::map<std::string, Applier*, std::less<>> routes_;
};

// What OwnEvents does that knows no model: applies `steps` (the events of
// `appended`, in order) and `settle` in one pipeline, waits for the
// projection to apply those the read model was not ready for, and logs
// rather than throws what Redis or the wait threw. `fold` builds the steps.
void apply_own_steps(redis::Pool& pool, es::CatchUp& catch_up,
                     const std::vector<const es::Appended*>& appended,
                     const std::function<std::vector<Step>()>& fold, const std::vector<Command>& settle);

// A write path's own events into its read model: what a single writer
// (es::AggregateWriter) appended is applied before the command answers, so
// the answer is readable at once from any replica. Each event is folded
// from the state the writer decided it on (Projection::own_step), so
// nothing is read back from Redis first.
template <ReadModelFold M>
class OwnEvents {
 public:
  OwnEvents(redis::Pool& pool, es::CatchUp& catch_up, const Projection<M>& projection)
      : pool_(pool), catch_up_(catch_up), projection_(projection) {}

  // `outcome`: an es::AggregateWriter outcome, whose `appended` were
  // decided on its `before`. When the read model has not reached an
  // event's predecessor yet (another event of the partition is still on
  // its way through the projection), waits until the projection has
  // applied it (es::CatchUp::through). `settle` runs with each event, even
  // one applied before (a claim the write path releases with it).
  //
  // Never throws: the event is committed, and the command's answer is
  // built from the committed events. When Redis is out, or the projection
  // does not get there in time, the projection applies it later; a client
  // is never told "nothing written" of a write in the log.
  template <typename Outcome>
  void apply(const Outcome& outcome, const std::vector<Command>& settle = {}) const {
    apply_all(std::span(&outcome, 1), settle);
  }
  // Many commands' events at once, in order, in one round trip.
  template <typename Outcome>
  void apply(const std::vector<Outcome>& outcomes) const {
    apply_all(std::span(outcomes), {});
  }

 private:
  template <typename Outcome>
  void apply_all(std::span<const Outcome> outcomes, const std::vector<Command>& settle) const {
    std::vector<const es::Appended*> appended;
    for (const auto& o : outcomes) {
      for (const auto& a : o.appended) {
        appended.push_back(&a);
      }
    }
    if (appended.empty()) {
      return;  // every command appended nothing
    }
    apply_own_steps(
        pool_, catch_up_, appended,
        [&] {
          std::vector<Step> steps;
          steps.reserve(appended.size());
          for (const auto& o : outcomes) {
            typename M::State state(o.before);
            for (const auto& a : o.appended) {
              steps.push_back(projection_.own_step(a.envelope, state));
            }
          }
          return steps;
        },
        settle);
  }

  redis::Pool& pool_;
  es::CatchUp& catch_up_;
  const Projection<M>& projection_;
};

// A consumed event of a service's own topic, decoded with the service's
// `decode`; throws std::invalid_argument when it is not a valid event or its
// payload names another aggregate than its ce_subject (the read model's
// indexes list the aggregate by its subject).
template <typename Event>
Event decode_own_event(const events::Envelope& envelope, Event (*decode)(std::string_view, std::string_view),
                       std::int64_t (*aggregate_of)(const Event&)) {
  auto event = decode(envelope.type, envelope.data);
  if (aggregate_of(event) != envelope.aggregate_id()) {
    throw std::invalid_argument("ce_subject does not match the aggregate id in the payload");
  }
  return event;
}

}  // namespace petstore::projection
