#include "pets/domain/status_machine.h"

namespace petstore::pets {

bool can_transition(PetStatus from, PetStatus to) {
  switch (from) {
    case PetStatus::Available:
      return to == PetStatus::Pending || to == PetStatus::Sold;
    case PetStatus::Pending:
      return to == PetStatus::Available || to == PetStatus::Sold;
    case PetStatus::Sold:
      return false;
  }
  return false;
}

}  // namespace petstore::pets
