#include "pets/domain/events.h"

#include <stdexcept>

#include "json/event_fields.h"
#include "json/writer.h"
#include "util/overloaded.h"

namespace petstore::pets {

namespace {

PetStatus status_field(const json::EventFields& f, const char* name) {
  return f.enumeration(name, [](const std::string& s) { return parse_status(s); });
}

}  // namespace

std::int64_t aggregate_of(const Event& e) {
  return std::visit([](const auto& ev) { return ev.id; }, e);
}

bool is_category_event(const Event& e) {
  return std::holds_alternative<CategoryCreated>(e) || std::holds_alternative<CategoryUpdated>(e) ||
         std::holds_alternative<CategoryDeleted>(e) || std::holds_alternative<CategoryPetsAdmitted>(e);
}

int schema_version_of(const Event& e) {
  return std::holds_alternative<PetCreated>(e) || std::holds_alternative<PetUpdated>(e) ? 2 : 1;
}

std::string encode(const Event& e) {
  json::Writer w;
  w.begin_object();
  std::visit(
      Overloaded{
          [&](const PetCreated& ev) {
            w.field("id", ev.id).field("name", ev.name).field("categoryId", ev.category_id);
            w.field("status", to_string(ev.status)).optional_field("description", ev.description);
          },
          [&](const PetUpdated& ev) {
            w.field("id", ev.id).field("name", ev.name).field("categoryId", ev.category_id);
            w.field("status", to_string(ev.status)).optional_field("description", ev.description);
          },
          [&](const PetStatusChanged& ev) {
            w.field("id", ev.id).field("from", to_string(ev.from)).field("to", to_string(ev.to));
          },
          [&](const PetDeleted& ev) { w.field("id", ev.id); },
          [&](const CategoryCreated& ev) {
            w.field("id", ev.id).field("name", ev.name).optional_field("description", ev.description);
          },
          [&](const CategoryUpdated& ev) {
            w.field("id", ev.id).field("name", ev.name).optional_field("description", ev.description);
          },
          [&](const CategoryDeleted& ev) { w.field("id", ev.id); },
          [&](const CategoryPetsAdmitted& ev) {
            w.field("id", ev.id).key("pets").begin_array();
            for (const auto& pet : ev.pets) {
              w.begin_object().field("petId", pet.pet_id).field("petVersion", pet.pet_version).end_object();
            }
            w.end_array();
          },
      },
      e);
  w.end_object();
  return w.finish();
}

Event decode(std::string_view type, std::string_view data) {
  return decode(type, json::EventFields(data));
}

Event decode(std::string_view type, const json::EventFields& f) {
  if (type == PetCreated::kType) {
    // Version 1 has no description; version 2 may have one.
    return PetCreated{f.integer("id"), f.text("name"), f.integer("categoryId"), status_field(f, "status"),
                      f.optional_text("description")};
  }
  if (type == PetUpdated::kType) {
    return PetUpdated{f.integer("id"), f.text("name"), f.integer("categoryId"), status_field(f, "status"),
                      f.optional_text("description")};
  }
  if (type == PetStatusChanged::kType) {
    return PetStatusChanged{f.integer("id"), status_field(f, "from"), status_field(f, "to")};
  }
  if (type == PetDeleted::kType) {
    return PetDeleted{f.integer("id")};
  }
  if (type == CategoryCreated::kType) {
    return CategoryCreated{f.integer("id"), f.text("name"), f.optional_text("description")};
  }
  if (type == CategoryUpdated::kType) {
    return CategoryUpdated{f.integer("id"), f.text("name"), f.optional_text("description")};
  }
  if (type == CategoryDeleted::kType) {
    return CategoryDeleted{f.integer("id")};
  }
  if (type == CategoryPetsAdmitted::kType) {
    CategoryPetsAdmitted admitted{f.integer("id"), {}};
    f.each_object("pets", [&](const json::EventFields& pet) {
      admitted.pets.push_back({pet.integer("petId"), pet.integer("petVersion")});
    });
    if (admitted.pets.empty()) {
      throw std::invalid_argument("event field pets must not be empty");
    }
    return admitted;
  }
  throw std::invalid_argument("unknown event type " + std::string(type));
}

}  // namespace petstore::pets
