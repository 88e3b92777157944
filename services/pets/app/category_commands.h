#pragma once

#include <cstdint>

#include "app/write_path.h"
#include "domain/commands.h"
#include "domain/pet.h"
#include "redis/script.h"

namespace petstore::pets {

// The category use cases. Deleting checks "no pet uses it" against a read
// model brought to the end of the pets topic, while new claims are refused,
// so no pet can be created in a category as it is deleted.
class CategoryCommands {
 public:
  explicit CategoryCommands(WritePath& write);

  Category create(std::int64_t id, const CategoryFields& fields, bool resumed);
  Category replace(std::int64_t id, const CategoryFields& fields, const Precondition& precondition);
  void remove(std::int64_t id, const Precondition& precondition);

 private:
  void close(std::int64_t id);
  void reopen(std::int64_t id) noexcept;

  WritePath& write_;
  redis::Script close_;
};

}  // namespace petstore::pets
