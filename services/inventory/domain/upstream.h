#pragma once

#include <cstdint>
#include <optional>

#include "events/envelope.h"
#include "vocabulary/pet_status.h"

namespace petstore::inventory {

// What the inventory needs from other services' events, read from their
// published contract (docs/events.md) rather than from their code, as any
// downstream team would. Unknown event types read as nullopt (ignored).

struct PetFact {
  enum class Kind { Appeared, Changed, Deleted };
  Kind kind = Kind::Changed;
  std::int64_t pet_id = 0;
  std::int64_t pet_version = 0;
  PetStatus status = PetStatus::Available;  // not set for Deleted
};

struct OrderFact {
  enum class Kind { Placed, Cancelled, Completed };
  Kind kind = Kind::Placed;
  std::int64_t order_id = 0;
  std::int64_t pet_id = 0;
  std::int64_t quantity = 0;
};

// Throw std::invalid_argument for a known type with a bad payload.
std::optional<PetFact> read_pet_fact(const events::Envelope& e);
std::optional<OrderFact> read_order_fact(const events::Envelope& e);

}  // namespace petstore::inventory
