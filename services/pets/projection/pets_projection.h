#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "domain/events.h"
#include "projection/keys.h"
#include "projection/script_applier.h"

namespace petstore::pets {

// Applies pets-service events to Redis with apply.lua: from the log (as the
// projection's Applier) and, on the write path, a command's own event right
// after the log acknowledged it.
class PetsProjection : public projection::ScriptApplier {
 public:
  explicit PetsProjection(PetKeys keys);

  es::ApplyOutcome apply_own(redis::Connection& conn, const Event& event, const events::Envelope& envelope,
                             const std::string& claim_token) const;

 protected:
  [[nodiscard]] std::vector<std::string> event_arguments(const events::Envelope& envelope) const override;

 private:
  [[nodiscard]] std::vector<std::string> arguments(const Event& event, std::int64_t version,
                                                   const std::string& time,
                                                   const std::string& claim_token) const;

  PetKeys keys_;
};

}  // namespace petstore::pets
