#include "domain/events.h"

#include <stdexcept>

#include <rapidjson/document.h>

#include "json/writer.h"
#include "util/overloaded.h"

namespace petstore::pets {

namespace {

struct Fields {
  const rapidjson::Document& doc;

  std::int64_t id(const char* name) const {
    const auto it = doc.FindMember(name);
    if (it == doc.MemberEnd() || !it->value.IsInt64()) {
      throw std::invalid_argument(std::string("event field ") + name + " must be an integer");
    }
    return it->value.GetInt64();
  }
  std::string text(const char* name) const {
    const auto it = doc.FindMember(name);
    if (it == doc.MemberEnd() || !it->value.IsString()) {
      throw std::invalid_argument(std::string("event field ") + name + " must be a string");
    }
    return {it->value.GetString(), it->value.GetStringLength()};
  }
  std::optional<std::string> optional_text(const char* name) const {
    const auto it = doc.FindMember(name);
    if (it == doc.MemberEnd() || it->value.IsNull()) {
      return std::nullopt;
    }
    return text(name);
  }
  PetStatus status(const char* name) const {
    const auto s = parse_status(text(name));
    if (!s) {
      throw std::invalid_argument(std::string("event field ") + name + " is not a pet status");
    }
    return *s;
  }
};

}  // namespace

std::string_view type_of(const Event& e) {
  return std::visit(Overloaded{
                        [](const PetCreated&) { return event_types::kPetCreated; },
                        [](const PetUpdated&) { return event_types::kPetUpdated; },
                        [](const PetStatusChanged&) { return event_types::kPetStatusChanged; },
                        [](const PetDeleted&) { return event_types::kPetDeleted; },
                        [](const CategoryCreated&) { return event_types::kCategoryCreated; },
                        [](const CategoryUpdated&) { return event_types::kCategoryUpdated; },
                        [](const CategoryDeleted&) { return event_types::kCategoryDeleted; },
                    },
                    e);
}

std::int64_t aggregate_of(const Event& e) {
  return std::visit([](const auto& ev) { return ev.id; }, e);
}

bool is_category_event(const Event& e) {
  return std::holds_alternative<CategoryCreated>(e) || std::holds_alternative<CategoryUpdated>(e) ||
         std::holds_alternative<CategoryDeleted>(e);
}

std::string encode(const Event& e) {
  json::Writer w;
  w.begin_object();
  std::visit(Overloaded{
                 [&](const PetCreated& ev) {
                   w.field("id", ev.id).field("name", ev.name).field("categoryId", ev.category_id);
                   w.field("status", to_string(ev.status));
                 },
                 [&](const PetUpdated& ev) {
                   w.field("id", ev.id).field("name", ev.name).field("categoryId", ev.category_id);
                   w.field("status", to_string(ev.status));
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
             },
             e);
  w.end_object();
  return w.finish();
}

Event decode(std::string_view type, std::string_view data) {
  rapidjson::Document doc;
  doc.Parse(data.data(), data.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    throw std::invalid_argument("event data is not a JSON object");
  }
  const Fields f{doc};
  if (type == event_types::kPetCreated) {
    return PetCreated{f.id("id"), f.text("name"), f.id("categoryId"), f.status("status")};
  }
  if (type == event_types::kPetUpdated) {
    return PetUpdated{f.id("id"), f.text("name"), f.id("categoryId"), f.status("status")};
  }
  if (type == event_types::kPetStatusChanged) {
    return PetStatusChanged{f.id("id"), f.status("from"), f.status("to")};
  }
  if (type == event_types::kPetDeleted) {
    return PetDeleted{f.id("id")};
  }
  if (type == event_types::kCategoryCreated) {
    return CategoryCreated{f.id("id"), f.text("name"), f.optional_text("description")};
  }
  if (type == event_types::kCategoryUpdated) {
    return CategoryUpdated{f.id("id"), f.text("name"), f.optional_text("description")};
  }
  if (type == event_types::kCategoryDeleted) {
    return CategoryDeleted{f.id("id")};
  }
  throw std::invalid_argument("unknown event type " + std::string(type));
}

}  // namespace petstore::pets
