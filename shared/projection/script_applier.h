#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "es/command_path.h"
#include "events/envelope.h"
#include "projection/runner.h"
#include "redis/script.h"

namespace petstore::projection {

// An Applier whose events are applied by one Lua script: apply_prelude.lua
// (the position and version checks every service shares) followed by the
// service's apply.lua. It takes KEYS[1] = the applied-positions hash and
// ARGV[1], ARGV[2] = position field and offset ('' and 0 on the write path),
// then the event's own arguments, and answers 'applied', 'duplicate' or 'behind'.
// A record that is not a valid event is logged and skipped (its position is
// recorded) so one bad record cannot stall the projection forever.
class ScriptApplier : public Applier {
 public:
  ScriptApplier(std::string offsets_key, std::string_view apply_lua, std::string service);

  void queue(redis::Connection& conn, const kafka::Message& message) final;
  [[nodiscard]] std::vector<const redis::Script*> scripts() const final;

 protected:
  // The script arguments after the position for one consumed record; throws
  // std::invalid_argument when the record is not a valid event.
  virtual std::vector<std::string> event_arguments(const kafka::Message& message) const = 0;

  // Runs the script for the write path's own event.
  es::ApplyOutcome apply_own(redis::Connection& conn, std::vector<std::string> event_args) const;

 private:
  std::string offsets_key_;
  std::string service_;
  redis::Script apply_;
  redis::Script skip_;
};

es::ApplyOutcome parse_apply_outcome(std::string_view reply);

// A consumed record of a service's own topic, decoded with the service's
// `decode`; throws std::invalid_argument when it is not a valid event or its
// payload names another aggregate than its ce_subject.
template <typename Event>
struct OwnEvent {
  events::Envelope envelope;
  Event event;
};
template <typename Event>
OwnEvent<Event> decode_own_event(const kafka::Message& m, Event (*decode)(std::string_view, std::string_view),
                                 std::int64_t (*aggregate_of)(const Event&)) {
  auto envelope = events::from_message(m);
  auto event = decode(envelope.type, envelope.data);
  if (aggregate_of(event) != envelope.aggregate_id) {
    throw std::invalid_argument("ce_subject does not match the aggregate id in the payload");
  }
  return {std::move(envelope), std::move(event)};
}

}  // namespace petstore::projection
