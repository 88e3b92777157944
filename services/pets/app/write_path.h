#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "es/catch_up.h"
#include "es/event_log.h"
#include "pets/app/writers.h"
#include "pets/projection/keys.h"
#include "pets/projection/pets_projection.h"
#include "pets/projection/read_model.h"
#include "redis/pool.h"
#include "redis/script.h"

namespace petstore::pets {

struct Topics {
  std::string pets = "petstore.pets.v1";
  std::string categories = "petstore.categories.v1";
};

// Checks a client's precondition (If-Match) against the current version.
using Precondition = std::function<void(std::int64_t current_version)>;

// What the pets service's commands share besides their single writers
// (app/writers.h): applying an appended event to the read model, and the
// category claims that keep a pet from landing in a category being deleted
// (the one rule that spans the two topics; docs/consistency.md).
class WritePath {
 public:
  struct Settings {
    // How long a category claim lasts: longer than the append it covers.
    std::chrono::milliseconds lease{17'500};
    // How long deleting a category may wait for the read model to reach
    // the end of the pets topic.
    std::chrono::milliseconds catch_up{5'000};
    // The longest an append may take, from deciding to its commit
    // (es::PartitionWriter::longest_append).
    std::chrono::milliseconds longest_append{16'250};
  };

  WritePath(redis::Pool& pool, es::CatchUp& catch_up, ReadModel& read, PetsProjection& projection,
            PetKeys keys, Topics topics, Settings settings);

  [[nodiscard]] const Topics& topics() const { return topics_; }
  [[nodiscard]] const PetKeys& keys() const { return keys_; }
  [[nodiscard]] const Settings& settings() const { return settings_; }
  ReadModel& read() { return read_; }
  es::CatchUp& catch_up() { return catch_up_; }
  redis::Pool& pool() { return pool_; }

  // Reserves `category_id` for a pet being created in or moved to it; 422
  // unknown_category or 409 category_closing when it cannot be. Returns the
  // claim token.
  std::string claim_category(std::int64_t category_id);
  void release_claim(std::int64_t category_id, const std::string& token) noexcept;

  // Applies what a single writer's command appended, so the answer is
  // readable at once from any replica, releasing the claim `claim_token` on
  // `category_id` with it (none when empty). When the read model has not
  // reached an event's predecessor yet, waits until the projection has
  // applied the event.
  void apply_own(const PetWriter::Outcome& outcome, std::int64_t category_id = 0,
                 const std::string& claim_token = "");
  void apply_own(const CategoryWriter::Outcome& outcome);

 private:
  redis::Pool& pool_;
  es::CatchUp& catch_up_;
  ReadModel& read_;
  PetsOwnEvents own_;
  PetKeys keys_;
  Topics topics_;
  Settings settings_;
  redis::Script claim_;
};

}  // namespace petstore::pets
