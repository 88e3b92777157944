#pragma once

#include <string>

#include "es/catch_up.h"
#include "pets/app/writers.h"
#include "pets/projection/pets_projection.h"
#include "pets/projection/read_model.h"
#include "redis/pool.h"

namespace petstore::pets {

struct Topics {
  std::string pets = "petstore.pets.v1";
  std::string categories = "petstore.categories.v1";
};

// Checks a client's precondition (If-Match) against the current version.
using Precondition = std::function<void(std::int64_t current_version)>;

// What the pets service's commands share besides their single writers
// (app/writers.h): the read model, brought to a topic's end when a
// decision needs it, and applying what a writer appended to it.
class WritePath {
 public:
  WritePath(redis::Pool& pool, es::CatchUp& catch_up, ReadModel& read, PetsProjection& projection,
            Topics topics);

  [[nodiscard]] const Topics& topics() const { return topics_; }
  ReadModel& read() { return read_; }
  es::CatchUp& catch_up() { return catch_up_; }

  // Applies what a single writer's command appended, so the answer is
  // readable at once from any replica. When the read model has not reached
  // an event's predecessor yet, waits until the projection has applied it.
  template <typename Outcome>
  void apply_own(const Outcome& outcome) {
    own_.apply(outcome);
  }

 private:
  es::CatchUp& catch_up_;
  ReadModel& read_;
  PetsOwnEvents own_;
  Topics topics_;
};

}  // namespace petstore::pets
