#pragma once

#include <cstdint>

#include "app/write_path.h"
#include "domain/commands.h"
#include "domain/pet.h"

namespace petstore::pets {

// The pet use cases. Each returns the pet as the read model now shows it.
class PetCommands {
 public:
  explicit PetCommands(WritePath& write) : write_(write) {}

  // `resumed`: an earlier attempt with the same Idempotency-Key died after
  // reserving `id`; if its event reached the log, that pet is returned.
  Pet create(std::int64_t id, const PetFields& fields, bool resumed);
  Pet replace(std::int64_t id, const PetFields& fields, const Precondition& precondition);
  Pet change_status(std::int64_t id, PetStatus status, const Precondition& precondition);
  void remove(std::int64_t id, const Precondition& precondition);

 private:
  WritePath& write_;
};

}  // namespace petstore::pets
