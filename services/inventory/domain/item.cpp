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

}  // namespace petstore::inventory
