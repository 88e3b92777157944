#include "app/pet_commands.h"

#include "domain/decide.h"
#include "domain/errors.h"
#include "domain/evolve.h"
#include "kafka/handles.h"

namespace petstore::pets {

Pet PetCommands::create(std::int64_t id, const PetFields& fields, bool resumed) {
  const auto event = decide_create_pet(id, fields);
  if (resumed) {
    write_.catch_up_aggregate(write_.topics().pets, id);
    if (auto existing = write_.read().pet(id)) {
      return *std::move(existing);
    }
  }
  const auto claim = write_.claim_category(fields.category_id);
  std::string time;
  try {
    time = write_.commit(event, 1, nullptr, claim);
  } catch (const kafka::Unavailable& e) {
    if (!e.possibly_persisted()) {
      write_.release_claim(fields.category_id, claim);
    }
    throw;
  }
  return Pet{id, event.name, event.category_id, event.status, 1, time, time, event.description};
}

Pet PetCommands::replace(std::int64_t id, const PetFields& fields, const Precondition& precondition) {
  es::LockGuard guard(write_.locks(), write_.lock(write_.keys().pet_lock(id), write_.topics().pets, id));
  auto pet = write_.read().require_pet(id);
  precondition(pet.version);
  const auto event = decide_replace_pet(pet, fields);
  if (!event) {
    return pet;
  }
  std::string claim;
  if (event->category_id != pet.category_id) {
    claim = write_.claim_category(event->category_id);
  }
  const auto version = pet.version + 1;
  std::string time;
  try {
    time = write_.commit(*event, version, &guard, claim);
  } catch (const kafka::Unavailable& e) {
    if (!claim.empty() && !e.possibly_persisted()) {
      write_.release_claim(event->category_id, claim);
    }
    throw;
  }
  return updated(std::move(pet), *event, version, time);
}

Pet PetCommands::change_status(std::int64_t id, PetStatus status, const Precondition& precondition) {
  es::LockGuard guard(write_.locks(), write_.lock(write_.keys().pet_lock(id), write_.topics().pets, id));
  auto pet = write_.read().require_pet(id);
  precondition(pet.version);
  const auto event = decide_change_status(pet, status);
  if (!event) {
    return pet;
  }
  pet.version += 1;
  pet.updated_at = write_.commit(*event, pet.version, &guard);
  pet.status = status;
  return pet;
}

void PetCommands::remove(std::int64_t id, const Precondition& precondition) {
  es::LockGuard guard(write_.locks(), write_.lock(write_.keys().pet_lock(id), write_.topics().pets, id));
  const auto pet = write_.read().require_pet(id);
  precondition(pet.version);
  write_.commit(decide_delete_pet(pet), pet.version + 1, &guard);
}

}  // namespace petstore::pets
