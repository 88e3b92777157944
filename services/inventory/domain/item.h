#pragma once

#include <cstdint>
#include <string>

#include "vocabulary/pet_status.h"

namespace petstore::inventory {

// The stock ledger of one pet: the aggregate of the inventory service, keyed
// by pet id. It exists from the pet's first event (or from an order for an
// unknown pet, which is refused and recorded) and keeps its history after the
// pet is deleted, so a late order event is still decided consistently.
struct Item {
  std::int64_t pet_id = 0;
  bool tracked = false;  // the pet exists in the catalogue
  PetStatus pet_status = PetStatus::Available;
  std::int64_t pet_version = 0;        // last pets-service version mirrored
  std::int64_t quantity = 0;           // units on hand and free to reserve
  std::int64_t reserved = 0;           // units held by open orders
  PetStatus status = PetStatus::Sold;  // the entry's effective status (effective_status)
  std::int64_t version = 0;            // 0: the ledger has no events yet
  std::string updated_at;
};

// What the ledger recorded for one order.
struct Reservation {
  enum class State { None, Reserved, Refused, Released, Consumed };
  State state = State::None;
  std::int64_t quantity = 0;
};
// "none", "reserved", "refused", "released" or "consumed".
const char* to_string(Reservation::State s);

// Largest quantity an InventoryUpdate may set; more is refused as absurd.
inline constexpr std::int64_t kMaxQuantity = 1'000'000;

// The entry's status: the pet's catalogue status unless the pet is available,
// in which case stock decides: units on hand -> available; none on hand but
// some reserved -> pending; none at all -> sold.
PetStatus effective_status(PetStatus pet_status, std::int64_t quantity, std::int64_t reserved);

}  // namespace petstore::inventory
