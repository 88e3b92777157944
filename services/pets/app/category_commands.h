#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "pets/app/write_path.h"
#include "pets/app/writers.h"
#include "pets/domain/pet.h"
#include "redis/script.h"

namespace petstore::pets {

// The category use cases, on the categories topic's single writer
// (CategoryWriter; docs/consistency.md). Deleting is the one decision that
// also rests on Redis, since "no pet uses it" spans every partition of the
// pets topic: the category is closed to new claims, the read model is
// brought to the end of the pets topic, and the pets are counted there.
class CategoryCommands {
 public:
  CategoryCommands(CategoryWriter& writer, WritePath& write);

  // `request`: as PetCommands::create.
  Category create(const CategoryFields& fields, const std::string& request);
  Category replace(std::int64_t id, const CategoryFields& fields, const Precondition& precondition);
  void remove(std::int64_t id, const Precondition& precondition);

 private:
  // Closes category `id` to new claims for `lease`; 409 while pets use it.
  void close(std::int64_t id, std::chrono::milliseconds lease);
  void reopen(std::int64_t id) noexcept;
  Category answer(const CategoryWriter::Outcome& outcome);

  CategoryWriter& writer_;
  WritePath& write_;
  redis::Script close_;
};

}  // namespace petstore::pets
