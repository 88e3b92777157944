#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "events/event_type.h"
#include "pets/domain/pet.h"

namespace petstore::json {
class EventFields;
}

namespace petstore::pets {

// The facts the pets service records. Each is one CloudEvent; `data` is the
// JSON encoding below, described by schemas/events/<type>.json.
struct PetCreated {
  static constexpr std::string_view kType = "io.petstore.pet.created";
  std::int64_t id = 0;
  std::string name;
  std::int64_t category_id = 0;
  PetStatus status = PetStatus::Available;
  std::optional<std::string> description;  // schema version 2 (absent from version 1)
};
struct PetUpdated {  // full state after the change
  static constexpr std::string_view kType = "io.petstore.pet.updated";
  std::int64_t id = 0;
  std::string name;
  std::int64_t category_id = 0;
  PetStatus status = PetStatus::Available;
  std::optional<std::string> description;  // schema version 2 (absent from version 1)
};
struct PetStatusChanged {
  static constexpr std::string_view kType = "io.petstore.pet.status_changed";
  std::int64_t id = 0;
  PetStatus from = PetStatus::Available;
  PetStatus to = PetStatus::Available;
};
struct PetDeleted {
  static constexpr std::string_view kType = "io.petstore.pet.deleted";
  std::int64_t id = 0;
};
struct CategoryCreated {
  static constexpr std::string_view kType = "io.petstore.category.created";
  std::int64_t id = 0;
  std::string name;
  std::optional<std::string> description;
};
struct CategoryUpdated {
  static constexpr std::string_view kType = "io.petstore.category.updated";
  std::int64_t id = 0;
  std::string name;
  std::optional<std::string> description;
};
struct CategoryDeleted {
  static constexpr std::string_view kType = "io.petstore.category.deleted";
  std::int64_t id = 0;
};
// A pet that may join a category: its event that names the category
// (created in it, or moved to it) comes at pet_version or later.
struct PetAdmission {
  std::int64_t pet_id = 0;
  std::int64_t pet_version = 0;
  bool operator==(const PetAdmission&) const = default;
};
// Pets may join the category: appended before each pet's own event, so a
// delete decided after it waits for those pets (decide_delete_category).
// It promises no pet: a pet's append may still fail. One event admits the
// pets whose commands asked at once.
struct CategoryPetsAdmitted {
  static constexpr std::string_view kType = "io.petstore.category.pets_admitted";
  std::int64_t id = 0;
  std::vector<PetAdmission> pets;
};

using Event = std::variant<PetCreated, PetUpdated, PetStatusChanged, PetDeleted, CategoryCreated,
                           CategoryUpdated, CategoryDeleted, CategoryPetsAdmitted>;

// The schema version this code writes for an event (ce_schemaversion):
// pet.created and pet.updated are at version 2, which added the optional
// `description`; every other type is at 1. decode() reads every version
// ever written (docs/events.md, "Compatibility rules").
int schema_version_of(const Event& e);

using events::type_of;  // each event's kType (events/event_type.h)
std::int64_t aggregate_of(const Event& e);
bool is_category_event(const Event& e);
std::string encode(const Event& e);
// Throws std::invalid_argument for an unknown type or a payload that does not
// match its schema.
Event decode(std::string_view type, std::string_view data);
// The same over a payload already parsed.
Event decode(std::string_view type, const json::EventFields& fields);

}  // namespace petstore::pets
