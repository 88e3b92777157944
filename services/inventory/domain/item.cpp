#include "inventory/domain/item.h"

namespace petstore::inventory {

PetStatus effective_status(PetStatus pet_status, std::int64_t quantity, std::int64_t reserved) {
  if (pet_status != PetStatus::Available) {
    return pet_status;
  }
  if (quantity > 0) {
    return PetStatus::Available;
  }
  return reserved > 0 ? PetStatus::Pending : PetStatus::Sold;
}

const char* to_string(Reservation::State s) {
  switch (s) {
    case Reservation::State::Reserved:
      return "reserved";
    case Reservation::State::Refused:
      return "refused";
    case Reservation::State::Released:
      return "released";
    case Reservation::State::Consumed:
      return "consumed";
    default:
      return "none";
  }
}

}  // namespace petstore::inventory
