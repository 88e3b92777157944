#include "pets/projection/pets_projection.h"

#include "embedded/apply.lua.h"

namespace petstore::pets {

PetsProjection::PetsProjection(const PetKeys& keys)
    : DomainProjection(keys.space(), kPetsApplyLua, "pets", decode, aggregate_of) {}

}  // namespace petstore::pets
