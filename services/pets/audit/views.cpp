// The pets service in `as-of` and `rebuild` (view_module.h): a pet as
// GET /pets/{petId}/profile shows it, with the service's own JSON codec,
// and the read model its projection writes. Apart from checks.cpp: the
// record checks, and their fuzz target, link neither.
#include "json/writer.h"
#include "kind_module.h"
#include "pets/domain/events.h"
#include "pets/domain/evolve.h"
#include "pets/http/json_codec.h"
#include "pets/projection/pets_projection.h"
#include "view_module.h"

namespace petstore::pets {
namespace {

std::string as_of(const std::vector<audit::AuditEvent>& events) {
  if (events.empty()) {
    return "null";
  }
  const auto state = audit::fold_events<Catalogue>(
      events, [](std::string_view t, std::string_view d) { return decode(t, d); });
  const auto id = events.back().subject;
  if (audit::info(events.back().kind).name != "category") {
    const auto it = state.pets.find(id);
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

audit::ReadModel read_model(const std::string& prefix) {
  PetKeys keys(prefix);
  return {"pets", std::make_unique<PetsProjection>(PetsModel(keys)), PetKeys::not_from_log(), "", ""};
}

}  // namespace

const audit::ViewModule& audit_views() {
  static const audit::ViewModule kViews{{"pet", "category"}, as_of, read_model};
  return kViews;
}

}  // namespace petstore::pets
