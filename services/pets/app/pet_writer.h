#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "domain/events.h"
#include "domain/evolve.h"
#include "domain/pet.h"
#include "es/aggregate_writer.h"
#include "events/envelope.h"

namespace petstore::pets {

// Pets as the single writer of the pets topic knows them
// (es::AggregateWriter, docs/consistency.md): one pet's state is the
// domain's own fold of its events, none before its creation and after its
// deletion.
struct PetTraits {
  using State = std::optional<Pet>;
  using Event = pets::Event;
  static constexpr std::int64_t kIdClass = 0;  // categories 1, orders 2

  static Event decode(const events::Envelope& env) {
    auto e = pets::decode(env.type, env.data);
    if (is_category_event(e)) {
      throw std::invalid_argument("not a pet event: " + env.type);
    }
    return e;
  }
  static void evolve(State& pet, const Event& e, std::int64_t version, const std::string& time) {
    pets::evolve(pet, e, version, time);
  }
  static es::EventParts parts(const Event& e) {
    return {std::string(type_of(e)), encode(e), schema_version_of(e)};
  }
};
static_assert(es::AggregateTraits<PetTraits>);

using PetWriter = es::AggregateWriter<PetTraits>;

}  // namespace petstore::pets
