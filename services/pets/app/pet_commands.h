#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "pets/app/category_commands.h"
#include "pets/app/write_path.h"
#include "pets/app/writers.h"
#include "pets/domain/pet.h"

namespace petstore::pets {

// The pet use cases, on the pets topic's single writer (PetWriter): each
// runs on the replica that owns the pet's partition (es::Errc::NotOwner,
// which the edge forwards, elsewhere), decides from that owner's fold of
// the log, and applies its event to the read model before answering. Each
// returns the pet as it is after the command. A pet that joins a category
// (created in it, moved to it) is admitted by the category's writer first
// (CategoryCommands::admit), and decided within the admission window's
// `decide` of asking.
class PetCommands {
 public:
  PetCommands(PetWriter& writer, WritePath& write, CategoryCommands& categories)
      : writer_(writer), write_(write), categories_(categories) {}

  // `request`: a digest of the client's Idempotency-Key (empty without
  // one); a request that already created its pet gets that pet back, as
  // it is now, and nothing is appended (es::AggregateWriter::create).
  Pet create(const PetFields& fields, const std::string& request);
  Pet replace(std::int64_t id, const PetFields& fields, const Precondition& precondition);
  Pet change_status(std::int64_t id, PetStatus status, const Precondition& precondition);
  void remove(std::int64_t id, const Precondition& precondition);

 private:
  // Applies what `outcome` appended to the read model; returns the pet.
  Pet answer(const PetWriter::Outcome& outcome);
  // Admits pet `id` to category `category`, for its event at `version` or
  // later; returns when it asked.
  std::chrono::steady_clock::time_point admit(std::int64_t category, std::int64_t id, std::int64_t version);
  // Lagging (nothing written) when the decision comes too long after the
  // admission asked at `asked`: a delete of the category may have waited
  // its pets out already.
  void in_time(std::chrono::steady_clock::time_point asked) const;

  PetWriter& writer_;
  WritePath& write_;
  CategoryCommands& categories_;
};

}  // namespace petstore::pets
