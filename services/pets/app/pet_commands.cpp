#include "pets/app/pet_commands.h"

#include "es/errc.h"
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

}  // namespace

Pet PetCommands::answer(const PetWriter::Outcome& outcome) {
  if (!outcome.state) {  // a repeated create whose pet has been deleted since
    throw DomainError(DomainError::Kind::NotFound, codes::kPetNotFound,
                      "pet " + std::to_string(outcome.id) + ", created by this request, has been deleted");
  }
  write_.apply_own(outcome);
  return *outcome.state;
}

std::chrono::steady_clock::time_point PetCommands::admit(std::int64_t category, std::int64_t id,
                                                         std::int64_t version) {
  const auto asked = std::chrono::steady_clock::now();
  categories_.admit(category, id, version);
  return asked;
}

void PetCommands::in_time(std::chrono::steady_clock::time_point asked) const {
  if (std::chrono::steady_clock::now() - asked > categories_.window().decide) {
    throw es::Error(es::Errc::Lagging,
                    "the category took too long to admit the pet; nothing was written, retry");
  }
}

Pet PetCommands::create(const PetFields& fields, const std::string& request) {
  std::chrono::steady_clock::time_point asked;
  return answer(writer_.create(
      request,
      [&](std::int64_t id) {
        decide_create_pet(id, fields);  // a pet refused anyway is not admitted
        asked = admit(fields.category_id, id, 1);
      },
      [&](std::int64_t id) {
        in_time(asked);
        return decide_create_pet(id, fields);
      }));
}

Pet PetCommands::replace(std::int64_t id, const PetFields& fields, const Precondition& precondition) {
  // The admission to fields.category_id: when asked, for which version.
  std::optional<std::chrono::steady_clock::time_point> asked;
  std::int64_t admitted_version = 0;
  for (;;) {
    std::int64_t joins_at = 0;
    const auto outcome = writer_.execute(id, [&](const PetWriter::Current& current) -> std::optional<Event> {
      const auto& pet = existing(current, id, precondition);
      auto event = decide_replace_pet(pet, fields);
      if (event && event->category_id != pet.category_id) {
        if (!asked || admitted_version != current.version + 1) {
          joins_at = current.version + 1;
          return std::nullopt;  // admitted first, then decided again
        }
        in_time(*asked);
      }
      return event;
    });
    if (joins_at == 0) {
      return answer(outcome);
    }
    asked = admit(fields.category_id, id, joins_at);
    admitted_version = joins_at;
  }
}

Pet PetCommands::change_status(std::int64_t id, PetStatus status, const Precondition& precondition) {
  const auto outcome = writer_.execute(id, [&](const PetWriter::Current& current) -> std::optional<Event> {
    return decide_change_status(existing(current, id, precondition), status);
  });
  return answer(outcome);
}

void PetCommands::remove(std::int64_t id, const Precondition& precondition) {
  const auto outcome = writer_.execute(id, [&](const PetWriter::Current& current) -> std::optional<Event> {
    return decide_delete_pet(existing(current, id, precondition));
  });
  write_.apply_own(outcome);
}

}  // namespace petstore::pets
