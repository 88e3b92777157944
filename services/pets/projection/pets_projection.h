#pragma once

#include "pets/domain/events.h"
#include "pets/projection/keys.h"
#include "projection/script_applier.h"

namespace petstore::pets {

// Applies pets-service events (pets and categories) to Redis with projection/apply.lua: from the log (as the
// projection's Applier) and, on the write path, a command's own event right
// after the log acknowledged it (ScriptApplier::apply_own). The script reads
// the event itself; adding a field to an event touches the domain's codec
// and this script, nothing here.
class PetsProjection : public projection::DomainProjection<Event> {
 public:
  explicit PetsProjection(const PetKeys& keys);
};

}  // namespace petstore::pets
