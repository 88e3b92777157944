#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "events/event_type.h"
#include "vocabulary/order_refusal.h"
#include "vocabulary/pet_status.h"

namespace petstore::json {
class EventFields;
}

namespace petstore::inventory {

// The facts the inventory service records, one CloudEvent each on
// petstore.inventory.v1 keyed by pet id (schemas/events/inventory.*.json).
struct Tracked {  // the pet appeared in the catalogue
  static constexpr std::string_view kType = "io.petstore.inventory.tracked";
  std::int64_t pet_id = 0;
  PetStatus pet_status = PetStatus::Available;
  std::int64_t pet_version = 0;
};
struct PetStatusMirrored {  // the pet's catalogue status changed
  static constexpr std::string_view kType = "io.petstore.inventory.pet_status_mirrored";
  std::int64_t pet_id = 0;
  PetStatus pet_status = PetStatus::Available;
  std::int64_t pet_version = 0;
};
struct Untracked {  // the pet left the catalogue
  static constexpr std::string_view kType = "io.petstore.inventory.untracked";
  std::int64_t pet_id = 0;
  std::int64_t pet_version = 0;
};
struct StockSet {  // an InventoryUpdate
  static constexpr std::string_view kType = "io.petstore.inventory.stock_set";
  std::int64_t pet_id = 0;
  std::int64_t quantity = 0;
};
struct Reserved {
  static constexpr std::string_view kType = "io.petstore.inventory.reserved";
  std::int64_t pet_id = 0;
  std::int64_t order_id = 0;
  std::int64_t quantity = 0;
};
struct Refused {
  static constexpr std::string_view kType = "io.petstore.inventory.refused";
  std::int64_t pet_id = 0;
  std::int64_t order_id = 0;
  std::int64_t quantity = 0;
  OrderRefusal reason = OrderRefusal::InsufficientStock;
};
struct Released {  // the order was cancelled: its units are free again
  static constexpr std::string_view kType = "io.petstore.inventory.released";
  std::int64_t pet_id = 0;
  std::int64_t order_id = 0;
  std::int64_t quantity = 0;
};
struct Consumed {  // the order was completed: its units left the store
  static constexpr std::string_view kType = "io.petstore.inventory.consumed";
  std::int64_t pet_id = 0;
  std::int64_t order_id = 0;
  std::int64_t quantity = 0;
};

using Event =
    std::variant<Tracked, PetStatusMirrored, Untracked, StockSet, Reserved, Refused, Released, Consumed>;

inline constexpr int kSchemaVersion = 1;

using events::type_of;  // each event's kType (events/event_type.h)
std::int64_t aggregate_of(const Event& e);
// The order an event is about (a reservation and what follows it), if any.
std::optional<std::int64_t> order_of(const Event& e);
std::string encode(const Event& e);
// Throws std::invalid_argument for an unknown type or a bad payload.
Event decode(std::string_view type, std::string_view data);
// The same over a payload already parsed.
Event decode(std::string_view type, const json::EventFields& fields);

}  // namespace petstore::inventory
