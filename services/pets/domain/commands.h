#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pets/domain/pet.h"

namespace petstore::pets {

// What a client asks for, already parsed from JSON but not yet validated.
struct PetFields {
  std::string name;
  std::int64_t category_id = 0;
  std::optional<PetStatus> status;         // absent: available on create, unchanged on replace
  std::optional<std::string> description;  // absent: none (a replace removes it)
};

struct CategoryFields {
  std::string name;
  std::optional<std::string> description;
};

}  // namespace petstore::pets
