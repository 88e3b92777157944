#pragma once

#include <cstdint>
#include <string>

#include "pets/app/write_path.h"
#include "pets/app/writers.h"
#include "pets/domain/pet.h"

namespace petstore::pets {

// The pet use cases, on the pets topic's single writer (PetWriter): each
// runs on the replica that owns the pet's partition (es::Errc::NotOwner,
// which the edge forwards, elsewhere), decides from that owner's fold of
// the log, and applies its event to the read model before answering. Each
// returns the pet as it is after the command.
class PetCommands {
 public:
  PetCommands(PetWriter& writer, WritePath& write) : writer_(writer), write_(write) {}

  // `request`: a digest of the client's Idempotency-Key (empty without
  // one); a request that already created its pet gets that pet back, as
  // it is now, and nothing is appended (es::AggregateWriter::create).
  Pet create(const PetFields& fields, const std::string& request);
  Pet replace(std::int64_t id, const PetFields& fields, const Precondition& precondition);
  Pet change_status(std::int64_t id, PetStatus status, const Precondition& precondition);
  void remove(std::int64_t id, const Precondition& precondition);

 private:
  // Applies what `outcome` appended to the read model, letting go of the
  // category claim `claim` with it; returns the pet.
  Pet answer(const PetWriter::Outcome& outcome, const std::string& claim);

  PetWriter& writer_;
  WritePath& write_;
};

}  // namespace petstore::pets
