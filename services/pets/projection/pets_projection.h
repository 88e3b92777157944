#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pets/domain/events.h"
#include "pets/domain/pet.h"
#include "pets/projection/keys.h"
#include "projection/applier.h"

namespace petstore::pets {

// The pets read model as projection::Projection folds it: pets and
// categories (two topics, one read model), each folded with the domain's
// evolve and held as records.h says.
class PetsModel {
 public:
  using Event = pets::Event;
  // One aggregate: a pet or a category, as its events say.
  struct State {
    State() = default;
    // As a single writer holds one (app/writers.h): the write path folds
    // its own events from it (projection::OwnEvents).
    State(std::optional<Pet> p) : pet(std::move(p)) {}            // NOLINT(google-explicit-constructor)
    State(std::optional<Category> c) : category(std::move(c)) {}  // NOLINT(google-explicit-constructor)
    State(const CategoryState& c) : category(c.category) {}       // NOLINT(google-explicit-constructor)
    std::optional<Pet> pet;
    std::optional<Category> category;
  };

  explicit PetsModel(PetKeys keys) : keys_(std::move(keys)) {}

  [[nodiscard]] const es::KeySpace& space() const { return keys_.space(); }
  [[nodiscard]] Event decode(const events::Envelope& envelope) const;
  [[nodiscard]] std::string key(const Event& e) const;
  [[nodiscard]] std::vector<projection::Command> reads(const std::vector<const Event*>& batch) const;
  [[nodiscard]] State state(const std::vector<const Event*>& batch,
                            std::span<const redis::Reply> replies) const;
  void evolve(State& s, const Event& e, std::int64_t version, const std::string& time) const;
  [[nodiscard]] projection::Record record(const State& s, const Event& e) const;

 private:
  PetKeys keys_;
};

using PetsProjection = projection::Projection<PetsModel>;
using PetsOwnEvents = projection::OwnEvents<PetsModel>;

}  // namespace petstore::pets
