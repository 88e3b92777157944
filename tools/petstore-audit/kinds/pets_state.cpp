// as-of's state of a pet or a category, apart from the pets kind's rules
// (pets.cpp): it prints a pet with the pets service's own JSON codec, which
// the record checks, and their fuzz target, need not link.
#include "json/writer.h"
#include "kind_module.h"
#include "pets/domain/events.h"
#include "pets/domain/evolve.h"
#include "pets/http/json_codec.h"

namespace petstore::audit {

namespace {

using namespace petstore::pets;

}  // namespace

std::string fold_pet_or_category(const std::vector<AuditEvent>& events) {
  if (events.empty()) {
    return "null";
  }
  const auto state =
      fold_events<Catalogue>(events, [](std::string_view t, std::string_view d) { return decode(t, d); });
  const auto id = events.back().subject;
  const bool category = events.back().kind == Kind::Categories;
  if (!category) {
    const auto it = state.pets.find(id);
    // As GET /pets/{petId}/profile shows it.
    return it == state.pets.end() ? "null" : to_profile_json(it->second);
  }
  const auto it = state.categories.find(id);
  if (it == state.categories.end()) {
    return "null";
  }
  const auto& c = it->second;
  json::Writer w;
  w.begin_object().field("id", c.id).field("name", c.name).optional_field("description", c.description);
  w.field("version", c.version).end_object();
  return w.finish();
}

}  // namespace petstore::audit
