#include "projection/pets_projection.h"

#include <spdlog/spdlog.h>

#include "embedded/apply.lua.h"
#include "embedded/skip.lua.h"
#include "events/envelope.h"
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
                 },
                 [&](const PetUpdated& e) {
                   f.name = e.name;
                   f.category = std::to_string(e.category_id);
                   f.status = to_string(e.status);
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

redis::Args view(const std::vector<std::string>& args) {
  return {args.begin(), args.end()};
}

}  // namespace

PetsProjection::PetsProjection(PetKeys keys)
    : keys_(std::move(keys)), offsets_key_(keys_.offsets()), apply_(kApplyLua), skip_(kSkipLua) {}

std::vector<const redis::Script*> PetsProjection::scripts() const {
  return {&apply_, &skip_};
}

std::vector<std::string> PetsProjection::arguments(const std::string& field, std::int64_t offset,
                                                   const Event& event, std::int64_t version,
                                                   const std::string& time,
                                                   const std::string& claim_token) const {
  auto f = fields_of(event);
  return {keys_.base(),
          field,
          std::to_string(offset),
          std::string(type_of(event)),
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

void PetsProjection::queue(redis::Connection& conn, const kafka::Message& m) {
  const auto field = m.topic + ":" + std::to_string(m.partition);
  try {
    const auto envelope = events::from_message(m);
    const auto event = decode(envelope.type, envelope.data);
    if (aggregate_of(event) != envelope.aggregate_id) {
      throw std::invalid_argument("ce_subject does not match the payload id");
    }
    const auto args = arguments(field, m.offset, event, envelope.version, envelope.time, "");
    apply_.append(conn, {offsets_key_}, view(args));
  } catch (const std::invalid_argument& e) {
    spdlog::error("projection: skipping {}@{}: not a valid pets event: {}", field, m.offset, e.what());
    const auto offset = std::to_string(m.offset);
    skip_.append(conn, {offsets_key_}, {field, offset});
  }
}

PetsProjection::Outcome PetsProjection::apply_own(redis::Connection& conn, const Event& event,
                                                  std::int64_t version, const std::string& time,
                                                  const std::string& claim_token) {
  const auto args = arguments("", 0, event, version, time, claim_token);
  const auto reply = apply_.run(conn, {offsets_key_}, view(args));
  const auto outcome = redis::as_string(redis::expect_ok(reply));
  if (outcome == "applied") {
    return Outcome::Applied;
  }
  return outcome == "duplicate" ? Outcome::Duplicate : Outcome::Behind;
}

}  // namespace petstore::pets
