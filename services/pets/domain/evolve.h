#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "pets/domain/events.h"
#include "pets/domain/pet.h"

namespace petstore::pets {

// The read model as a pure fold of the log: what Redis must equal after the
// projection has applied the same events. Tests fold a topic with it and
// compare; the projection's Lua script implements the same rules.
struct Catalogue {
  std::map<std::int64_t, Pet> pets;
  std::map<std::int64_t, Category> categories;
  // Last applied version per aggregate, kept after deletion so that a
  // redelivered old event cannot bring a deleted aggregate back.
  std::map<std::int64_t, std::int64_t> versions;
  // Pets per category, counted whether or not the category is known yet:
  // folding several topics gives no order between a pet and its category.
  std::map<std::int64_t, std::int64_t> pet_counts;
};

// One pet's fold: the pet after a pet event at `version` (none once it is
// deleted); category events leave it alone. The single writer folds each
// pet with it (app/writers.h), and the Catalogue below folds its pets
// with it. No version check: the caller applies each version once.
void evolve(std::optional<Pet>& pet, const Event& event, std::int64_t version, const std::string& time);
// The same for one category, leaving its pet_count alone (pets are counted
// from the pets topic).
void evolve(std::optional<Category>& category, const Event& event, std::int64_t version,
            const std::string& time);
// The same, with the pets admitted to the category (kept kAdmissionsKept).
void evolve(CategoryState& state, const Event& event, std::int64_t version, const std::string& time);

// Applies one event at `version`. An event whose version is not above the
// aggregate's applied version is a duplicate and changes nothing; returns
// whether it was applied.
bool evolve(Catalogue& state, const Event& event, std::int64_t version, const std::string& time);

// A pet after a replace: the one place a PetUpdated's fields reach a Pet, for
// the fold above and for the write path's answer.
Pet updated(Pet pet, const PetUpdated& e, std::int64_t version, const std::string& time);

}  // namespace petstore::pets
