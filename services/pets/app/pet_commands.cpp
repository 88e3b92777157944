#include "pets/app/pet_commands.h"

#include "es/errc.h"
#include "kafka/handles.h"
#include "pets/domain/decide.h"
#include "pets/domain/errors.h"

namespace petstore::pets {
namespace {

// The pet in an owner's fold, with the client's precondition checked
// against its version; 404 when there is none.
const Pet& existing(const PetWriter::Current& current, std::int64_t id, const Precondition& precondition) {
  if (!current.state) {
    throw DomainError(DomainError::Kind::NotFound, codes::kPetNotFound,
                      "pet " + std::to_string(id) + " does not exist");
  }
  precondition(current.version);
  return *current.state;
}

// Runs `command`, which may claim a category (`claim` is then its token);
// when the command fails with its event surely not counting, the claim is
// let go at once instead of at the end of its lease.
template <typename Command>
PetWriter::Outcome with_claim(WritePath& write, std::int64_t category, const std::string& claim,
                              Command&& command) {
  try {
    return command();
  } catch (const kafka::Unavailable& e) {
    // The event may still land: the claim then runs out with its lease.
    if (!claim.empty() && !e.possibly_persisted()) {
      write.release_claim(category, claim);
    }
    throw;
  } catch (const es::Error& e) {
    // Fenced: nothing of it is in the log. Unknown: as above.
    if (!claim.empty() && e.code() != es::Errc::OutcomeUnknown) {
      write.release_claim(category, claim);
    }
    throw;
  } catch (...) {
    // Refused: nothing will release the claim but this.
    if (!claim.empty()) {
      write.release_claim(category, claim);
    }
    throw;
  }
}

}  // namespace

Pet PetCommands::answer(const PetWriter::Outcome& outcome, const std::string& claim) {
  if (!outcome.state) {  // a repeated create whose pet has been deleted since
    throw DomainError(DomainError::Kind::NotFound, codes::kPetNotFound,
                      "pet " + std::to_string(outcome.id) + ", created by this request, has been deleted");
  }
  write_.apply_own(outcome, outcome.state->category_id, claim);  // a claim is only taken with an event
  return *outcome.state;
}

Pet PetCommands::create(const PetFields& fields, const std::string& request) {
  std::string claim;
  const auto outcome = with_claim(write_, fields.category_id, claim, [&] {
    return writer_.create(request, [&](std::int64_t id) {
      auto event = decide_create_pet(id, fields);
      claim = write_.claim_category(fields.category_id);
      return event;
    });
  });
  return answer(outcome, claim);
}

Pet PetCommands::replace(std::int64_t id, const PetFields& fields, const Precondition& precondition) {
  std::string claim;
  const auto outcome = with_claim(write_, fields.category_id, claim, [&] {
    return writer_.execute(id, [&](const PetWriter::Current& current) -> std::optional<Event> {
      const auto& pet = existing(current, id, precondition);
      auto event = decide_replace_pet(pet, fields);
      if (event && event->category_id != pet.category_id) {
        claim = write_.claim_category(event->category_id);
      }
      return event;
    });
  });
  return answer(outcome, claim);
}

Pet PetCommands::change_status(std::int64_t id, PetStatus status, const Precondition& precondition) {
  const auto outcome = writer_.execute(id, [&](const PetWriter::Current& current) -> std::optional<Event> {
    return decide_change_status(existing(current, id, precondition), status);
  });
  return answer(outcome, "");
}

void PetCommands::remove(std::int64_t id, const Precondition& precondition) {
  const auto outcome = writer_.execute(id, [&](const PetWriter::Current& current) -> std::optional<Event> {
    return decide_delete_pet(existing(current, id, precondition));
  });
  write_.apply_own(outcome);
}

}  // namespace petstore::pets
