#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "vocabulary/pet_status.h"

namespace petstore::pets {

using petstore::parse_status;
using petstore::PetStatus;
using petstore::to_string;

struct Pet {
  std::int64_t id = 0;
  std::string name;
  std::int64_t category_id = 0;
  PetStatus status = PetStatus::Available;
  std::int64_t version = 0;
  std::string created_at;
  std::string updated_at;
  std::optional<std::string> description;  // since schema version 2 of pet.created/updated

  bool operator==(const Pet&) const = default;
};

struct Category {
  std::int64_t id = 0;
  std::string name;
  std::optional<std::string> description;
  std::int64_t version = 0;
  std::int64_t pet_count = 0;

  bool operator==(const Category&) const = default;
};

// A pet let into a category (CategoryPetsAdmitted): its event comes at
// pet_version or later; at_ms is the admission's time, ms since the epoch.
struct Admission {
  std::int64_t pet_version = 0;
  std::int64_t at_ms = 0;
  bool operator==(const Admission&) const = default;
};

// A category as its single writer folds it (app/writers.h): the category,
// and the pets admitted to it in the last kAdmissionsKept, by pet (the
// latest admission of each), which a delete waits for
// (decide_delete_category).
struct CategoryState {
  std::optional<Category> category;
  std::map<std::int64_t, Admission> admitted;
};
inline constexpr std::chrono::minutes kAdmissionsKept{15};

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
