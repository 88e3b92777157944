#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "domain/events.h"
#include "projection/keys.h"
#include "projection/script_applier.h"

namespace petstore::inventory {

// Applies inventory events to Redis with apply.lua, from the log and (on the
// write path) right after the log acknowledged a command's own event.
class InventoryProjection : public projection::ScriptApplier {
 public:
  explicit InventoryProjection(InventoryKeys keys);

  es::ApplyOutcome apply_own(redis::Connection& conn, const Event& event,
                             const events::Envelope& envelope) const;

 protected:
  [[nodiscard]] std::vector<std::string> event_arguments(const events::Envelope& envelope) const override;

 private:
  [[nodiscard]] std::vector<std::string> arguments(const Event& event, std::int64_t version,
                                                   const std::string& time) const;

  InventoryKeys keys_;
};

}  // namespace petstore::inventory
