#include "pets/domain/decide.h"

#include "pets/domain/errors.h"
#include "pets/domain/status_machine.h"
#include "pets/domain/validation.h"

namespace petstore::pets {
namespace {

void check_transition(PetStatus from, PetStatus to) {
  if (from != to && !can_transition(from, to)) {
    throw DomainError(
        DomainError::Kind::Conflict, codes::kIllegalTransition,
        "a pet cannot go from " + std::string(to_string(from)) + " to " + std::string(to_string(to)));
  }
}

}  // namespace

PetCreated decide_create_pet(std::int64_t id, const PetFields& fields) {
  validate_name("name", fields.name);
  validate_description(fields.description);
  return {id, fields.name, fields.category_id, fields.status.value_or(PetStatus::Available),
          fields.description};
}

std::optional<PetUpdated> decide_replace_pet(const Pet& current, const PetFields& fields) {
  validate_name("name", fields.name);
  validate_description(fields.description);
  const auto status = fields.status.value_or(current.status);
  check_transition(current.status, status);
  if (fields.name == current.name && fields.category_id == current.category_id && status == current.status &&
      fields.description == current.description) {
    return std::nullopt;
  }
  return PetUpdated{current.id, fields.name, fields.category_id, status, fields.description};
}

std::optional<PetStatusChanged> decide_change_status(const Pet& current, PetStatus to) {
  check_transition(current.status, to);
  if (to == current.status) {
    return std::nullopt;
  }
  return PetStatusChanged{current.id, current.status, to};
}

PetDeleted decide_delete_pet(const Pet& current) {
  return PetDeleted{current.id};
}

CategoryCreated decide_create_category(std::int64_t id, const CategoryFields& fields) {
  validate_name("name", fields.name);
  validate_description(fields.description);
  return {id, fields.name, fields.description};
}

std::optional<CategoryUpdated> decide_replace_category(const Category& current,
                                                       const CategoryFields& fields) {
  validate_name("name", fields.name);
  validate_description(fields.description);
  if (fields.name == current.name && fields.description == current.description) {
    return std::nullopt;
  }
  return CategoryUpdated{current.id, fields.name, fields.description};
}

CategoryPetsAdmitted decide_admit_pets(const CategoryState& current, std::int64_t id,
                                       std::vector<PetAdmission> pets) {
  if (!current.category) {
    throw DomainError(DomainError::Kind::Unprocessable, codes::kUnknownCategory,
                      "categoryId " + std::to_string(id) + " does not name an existing category");
  }
  return {id, std::move(pets)};
}

CategoryDeleted decide_delete_category(const CategoryState& current, const PetsSeen& pets,
                                       std::int64_t now_ms, const AdmissionWindow& window) {
  const auto id = current.category.value().id;
  std::vector<PetAdmission> recent;
  for (const auto& [pet, admission] : current.admitted) {
    if (now_ms < admission.at_ms + window.total().count()) {
      recent.push_back({pet, admission.pet_version});
    }
  }
  if (const auto pet = recent.empty() ? std::nullopt : pets.first_not_landed(recent)) {
    throw DomainError(
        DomainError::Kind::NotYet, codes::kCategoryInUse,
        "category " + std::to_string(id) + " has pet " + std::to_string(*pet) + " being added to it");
  }
  if (const auto n = pets.naming(); n > 0) {
    throw DomainError(
        DomainError::Kind::Conflict, codes::kCategoryInUse,
        "category " + std::to_string(id) + " is still used by " + std::to_string(n) + " pet(s)");
  }
  return CategoryDeleted{id};
}

}  // namespace petstore::pets
