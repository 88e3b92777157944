#pragma once

#include "pets/domain/pet.h"

namespace petstore::pets {

// The pet life cycle (docs/pets.md, README):
//   available -> pending   a buyer is in the process of buying it
//   available -> sold
//   pending   -> available the purchase fell through
//   pending   -> sold
//   sold is final: a sold pet never returns to the catalogue.
// Staying in the same status is not a transition and changes nothing.
bool can_transition(PetStatus from, PetStatus to);

}  // namespace petstore::pets
