#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "es/catch_up.h"
#include "es/command_path.h"
#include "es/event_log.h"
#include "es/key_space.h"
#include "events/envelope.h"
#include "projection/runner.h"
#include "redis/script.h"

namespace petstore::projection {

// An Applier whose events are applied by one Lua script: apply_prelude.lua
// (the position and version checks, the aggregate's history, and decoding
// the event, which every service shares) followed by the service's
// apply.lua, which reads the event itself: no field of it travels as a
// positional argument. It takes KEYS[1] = the applied-positions hash,
// KEYS[2] = the ready marker, then the service's `extra_keys`; ARGV[1],
// ARGV[2] = position field and '<offset>/<previous>' ('' and '0' on the
// write path); ARGV[3] = the service's key base; ARGV[4] = the event in
// CloudEvents' structured JSON; then, on the write path only, the
// command's context (apply_own). It answers 'applied', 'duplicate', 'behind'
// (write path) or 'gap' (projection; see Applier).
// A record that is not a valid event is logged and skipped (its position is
// recorded, by the same script) so one bad record cannot stall the
// projection forever.
class ScriptApplier : public Applier {
 public:
  ScriptApplier(const es::KeySpace& space, std::string_view apply_lua, std::string service);
  // With the positions and ready marker of `space` but the read model's keys
  // under `base` instead of the space's own (the shared API key registry),
  // and keys beyond it that the script touches (KEYS[3] on).
  ScriptApplier(const es::KeySpace& space, std::string base, std::string_view apply_lua, std::string service,
                std::vector<std::string> extra_keys = {});

  void queue(redis::Connection& conn, const kafka::Message& message, std::int64_t previous) final;
  [[nodiscard]] std::vector<const redis::Script*> scripts() const final;

  // Runs the script for the write path's own event, just acknowledged by
  // the log; `context` is what the command knows besides the event (ARGV[5]
  // on: the pets service's category claim).
  es::ApplyOutcome apply_own(redis::Connection& conn, const events::Envelope& envelope,
                             const std::vector<std::string>& context = {}) const;
  // apply_own() of many events, with no context, in one pipeline: one
  // round trip for a batch a writer appended together. One outcome each.
  std::vector<es::ApplyOutcome> apply_own_each(redis::Connection& conn,
                                               const std::vector<const events::Envelope*>& envelopes) const;

 protected:
  // Throws std::invalid_argument when the envelope is not a valid event of
  // the service (decoding it with the service's own decoder): such a record
  // never reaches the script, which can then read what it needs unchecked.
  virtual void check(const events::Envelope& envelope) const = 0;

 private:
  [[nodiscard]] redis::Args keys() const;

  std::string base_;
  std::string service_;
  std::vector<std::string> keys_;  // KEYS: positions, ready marker, extra_keys
  redis::Script apply_;
};

es::ApplyOutcome parse_apply_outcome(std::string_view reply);

// A write path's own events into its read model: what a single writer
// (es::AggregateWriter) appended is applied before the command answers, so
// the answer is readable at once from any replica.
class OwnEvents {
 public:
  OwnEvents(redis::Pool& pool, es::CatchUp& catch_up, const ScriptApplier& projection)
      : pool_(pool), catch_up_(catch_up), projection_(projection) {}

  // When the read model has not reached the event's predecessor yet
  // (another event of the partition is still on its way through the
  // projection), waits until the projection has applied this one
  // (es::CatchUp::through). `context`: see ScriptApplier::apply_own.
  //
  // Never throws: the event is committed, and the command's answer is
  // built from the committed events. When Redis is out, or the projection
  // does not get there in time, the projection applies it later; a client
  // is never told "nothing written" of a write in the log.
  void apply(const es::Appended& appended, const std::vector<std::string>& context = {}) const;
  // Many events at once, in order, in one round trip (ScriptApplier::apply_own_each).
  void apply(const std::vector<es::Appended>& appended) const;

 private:
  // Runs `apply`, logging what it throws of Redis or of the wait.
  static void committed(const std::function<void()>& apply);

  redis::Pool& pool_;
  es::CatchUp& catch_up_;
  const ScriptApplier& projection_;
};

// A consumed event of a service's own topic, decoded with the service's
// `decode`; throws std::invalid_argument when it is not a valid event or its
// payload names another aggregate than its ce_subject (the scripts take the
// aggregate's id from the subject).
template <typename Event>
Event decode_own_event(const events::Envelope& envelope, Event (*decode)(std::string_view, std::string_view),
                       std::int64_t (*aggregate_of)(const Event&)) {
  auto event = decode(envelope.type, envelope.data);
  if (aggregate_of(event) != envelope.aggregate_id()) {
    throw std::invalid_argument("ce_subject does not match the aggregate id in the payload");
  }
  return event;
}

// The projection of a service's own topics: the service's apply.lua, with
// every consumed record checked by the service's decoder first. Each service
// names one (pets::PetsProjection and the like); only its script differs.
template <typename Event>
class DomainProjection : public ScriptApplier {
 public:
  using Decode = Event (*)(std::string_view, std::string_view);
  using AggregateOf = std::int64_t (*)(const Event&);

  DomainProjection(const es::KeySpace& space, std::string_view apply_lua, std::string service, Decode decode,
                   AggregateOf aggregate_of)
      : ScriptApplier(space, apply_lua, std::move(service)), decode_(decode), aggregate_of_(aggregate_of) {}

 protected:
  void check(const events::Envelope& envelope) const final {
    (void)decode_own_event(envelope, decode_, aggregate_of_);
  }

 private:
  Decode decode_;
  AggregateOf aggregate_of_;
};

}  // namespace petstore::projection
