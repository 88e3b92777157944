#include "projection/pets_projection.h"

#include "embedded/apply.lua.h"
#include "util/overloaded.h"

namespace petstore::pets {

namespace {

struct EventFields {
  std::string name;
  std::string category;
  std::string status;
  std::string description;
  bool has_description = false;
};

EventFields fields_of(const Event& event) {
  EventFields f;
  std::visit(Overloaded{
                 [&](const PetCreated& e) {
                   f.name = e.name;
                   f.category = std::to_string(e.category_id);
                   f.status = to_string(e.status);
                   f.has_description = e.description.has_value();
                   f.description = e.description.value_or("");
                 },
                 [&](const PetUpdated& e) {
                   f.name = e.name;
                   f.category = std::to_string(e.category_id);
                   f.status = to_string(e.status);
                   f.has_description = e.description.has_value();
                   f.description = e.description.value_or("");
                 },
                 [&](const PetStatusChanged& e) { f.status = to_string(e.to); },
                 [&](const PetDeleted&) {},
                 [&](const CategoryCreated& e) {
                   f.name = e.name;
                   f.has_description = e.description.has_value();
                   f.description = e.description.value_or("");
                 },
                 [&](const CategoryUpdated& e) {
                   f.name = e.name;
                   f.has_description = e.description.has_value();
                   f.description = e.description.value_or("");
                 },
                 [&](const CategoryDeleted&) {},
             },
             event);
  return f;
}

}  // namespace

PetsProjection::PetsProjection(PetKeys keys)
    : ScriptApplier(keys.space(), kPetsApplyLua, "pets"), keys_(std::move(keys)) {}

std::vector<std::string> PetsProjection::arguments(const Event& event, std::int64_t version,
                                                   const std::string& time,
                                                   const std::string& claim_token) const {
  auto f = fields_of(event);
  return {std::string(type_of(event)),
          std::to_string(aggregate_of(event)),
          std::to_string(version),
          time,
          std::move(f.name),
          std::move(f.category),
          std::move(f.status),
          std::move(f.description),
          f.has_description ? "1" : "0",
          claim_token};
}

std::vector<std::string> PetsProjection::event_arguments(const events::Envelope& envelope) const {
  const auto event = projection::decode_own_event(envelope, decode, aggregate_of);
  return arguments(event, envelope.version, envelope.time, "");
}

es::ApplyOutcome PetsProjection::apply_own(redis::Connection& conn, const Event& event,
                                           const events::Envelope& envelope,
                                           const std::string& claim_token) const {
  return ScriptApplier::apply_own(conn, envelope,
                                  arguments(event, envelope.version, envelope.time, claim_token));
}

}  // namespace petstore::pets
