#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "es/command_path.h"
#include "es/key_space.h"
#include "events/envelope.h"
#include "projection/runner.h"
#include "redis/script.h"

namespace petstore::projection {

// An Applier whose events are applied by one Lua script: apply_prelude.lua
// (the position and version checks and the aggregate's history, which every
// service shares) followed by the service's apply.lua. It takes KEYS[1] = the
// applied-positions hash, KEYS[2] = the ready marker; ARGV[1], ARGV[2] =
// position field and '<offset>/<previous>' ('' and '0' on the write path);
// ARGV[3] = the service's key base; ARGV[4] = the event in CloudEvents'
// structured JSON; then the service's own arguments. It answers 'applied',
// 'duplicate', 'behind' (write path) or 'gap' (projection; see Applier).
// A record that is not a valid event is logged and skipped (its position is
// recorded, by the same script) so one bad record cannot stall the
// projection forever.
class ScriptApplier : public Applier {
 public:
  ScriptApplier(const es::KeySpace& space, std::string_view apply_lua, std::string service);
  // With the positions and ready marker of `space` but the read model's keys
  // under `base` instead of the space's own (the shared API key registry).
  ScriptApplier(const es::KeySpace& space, std::string base, std::string_view apply_lua, std::string service);

  void queue(redis::Connection& conn, const kafka::Message& message, std::int64_t previous) final;
  [[nodiscard]] std::vector<const redis::Script*> scripts() const final;

 protected:
  // The service's own script arguments (ARGV[5] on) for a consumed event;
  // throws std::invalid_argument when it is not a valid event of the service.
  virtual std::vector<std::string> event_arguments(const events::Envelope& envelope) const = 0;

  // Runs the script for the write path's own event.
  es::ApplyOutcome apply_own(redis::Connection& conn, const events::Envelope& envelope,
                             std::vector<std::string> event_args) const;

 private:
  std::string offsets_key_;
  std::string ready_key_;
  std::string base_;
  std::string service_;
  redis::Script apply_;
};

es::ApplyOutcome parse_apply_outcome(std::string_view reply);

// A consumed event of a service's own topic, decoded with the service's
// `decode`; throws std::invalid_argument when it is not a valid event or its
// payload names another aggregate than its ce_subject.
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
