#pragma once

#include <optional>

#include "pets/domain/events.h"
#include "pets/domain/pet.h"

namespace petstore::pets {

// Pure decisions: given the current state and a command, the event to record
// (or none when the command changes nothing), or a DomainError. The
// caller guarantees existence checks (404s) and concurrency; these functions
// only apply the domain's rules.

PetCreated decide_create_pet(std::int64_t id, const PetFields& fields);
std::optional<PetUpdated> decide_replace_pet(const Pet& current, const PetFields& fields);
std::optional<PetStatusChanged> decide_change_status(const Pet& current, PetStatus to);
PetDeleted decide_delete_pet(const Pet& current);

CategoryCreated decide_create_category(std::int64_t id, const CategoryFields& fields);
std::optional<CategoryUpdated> decide_replace_category(const Category& current, const CategoryFields& fields);
// Refused (409 category_in_use) while pets still reference the category.
CategoryDeleted decide_delete_category(const Category& current);

}  // namespace petstore::pets
