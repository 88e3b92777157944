#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "es/aggregate_writer.h"
#include "events/envelope.h"
#include "pets/domain/events.h"
#include "pets/domain/evolve.h"
#include "pets/domain/pet.h"

namespace petstore::pets {

// The pets service's aggregates as their topics' single writers know them
// (es::AggregateWriter, docs/consistency.md): one aggregate's state is the
// domain's own fold of its events, none before its creation and after its
// deletion.
template <typename AggregateState, bool kCategories, std::int64_t kClass>
struct PetsServiceTraits {
  using State = AggregateState;
  using Event = pets::Event;
  static constexpr std::int64_t kIdClass = kClass;  // pets 0, categories 1, orders 2

  static Event decode(const events::Envelope& env) {
    auto e = pets::decode(env.type, env.data);
    if (is_category_event(e) != kCategories) {
      throw std::invalid_argument("not an event of this topic: " + env.type);
    }
    return e;
  }
  static void evolve(State& state, const Event& e, std::int64_t version, const std::string& time) {
    pets::evolve(state, e, version, time);
  }
  static es::EventParts parts(const Event& e) {
    return {std::string(type_of(e)), encode(e), schema_version_of(e)};
  }
  // A command's outcome, and the state its event is folded from in the
  // read model, leave a category's admissions out: they grow with the
  // pets joining it, and only its writer's deletes look at them.
  static State reported(const State& s) {
    if constexpr (kCategories) {
      return {s.category, {}};
    } else {
      return s;
    }
  }
  static State before(const State& s, const Event& /*e*/) { return reported(s); }
};

using PetTraits = PetsServiceTraits<std::optional<Pet>, false, 0>;
using CategoryTraits = PetsServiceTraits<CategoryState, true, 1>;
static_assert(es::AggregateTraits<PetTraits>);
static_assert(es::AggregateTraits<CategoryTraits>);

using PetWriter = es::AggregateWriter<PetTraits>;
using CategoryWriter = es::AggregateWriter<CategoryTraits>;

}  // namespace petstore::pets
