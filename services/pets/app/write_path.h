#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "domain/events.h"
#include "es/command_path.h"
#include "projection/keys.h"
#include "projection/pets_projection.h"
#include "projection/read_model.h"
#include "redis/pool.h"
#include "redis/script.h"

namespace petstore::pets {

struct Topics {
  std::string pets = "petstore.pets.v1";
  std::string categories = "petstore.categories.v1";
};

// Checks a client's precondition (If-Match) against the current version.
using Precondition = std::function<void(std::int64_t current_version)>;

// What every command of the pets service goes through: the shared command
// path (lock, append, apply own event) plus what only pets need: choosing the
// topic and claiming a category.
class WritePath {
 public:
  WritePath(es::CommandPath& path, ReadModel& read, PetsProjection& projection, PetKeys keys, Topics topics);

  [[nodiscard]] const std::string& topic_for(const Event& e) const;
  [[nodiscard]] const Topics& topics() const { return topics_; }
  [[nodiscard]] const PetKeys& keys() const { return keys_; }
  ReadModel& read() { return read_; }
  es::AggregateLock& locks() { return path_.locks(); }
  es::CatchUp& catch_up() { return path_.catch_up(); }
  redis::Pool& pool() { return path_.pool(); }
  [[nodiscard]] std::chrono::milliseconds lease() const { return path_.lease(); }

  es::AggregateLock::Held lock(const std::string& lock_key, const std::string& topic, std::int64_t id) {
    return path_.lock(lock_key, topic, id);
  }
  void catch_up_aggregate(const std::string& topic, std::int64_t id,
                          es::CatchUp::Deadline deadline = es::CatchUp::Deadline::max()) {
    path_.catch_up_aggregate(topic, id, deadline);
  }

  // Reserves `category_id` for a pet being created in or moved to it; 422
  // unknown_category or 409 category_closing when it cannot be. Returns the
  // claim token.
  std::string claim_category(std::int64_t category_id);
  void release_claim(std::int64_t category_id, const std::string& token) noexcept;

  // Applies an event the pets topic's single writer appended, so the answer
  // is readable at once from any replica, releasing `claim_token` with it.
  // When the read model has not reached the event's predecessor yet, waits
  // until the projection has applied the event.
  void apply_own(const es::Appended& appended, const std::string& claim_token = "");

  // Appends the event at `version` and applies it, releasing `claim_token`
  // (es::CommandPath::commit has the rules). Returns the event time.
  std::string commit(const Event& event, std::int64_t version, es::LockGuard* guard,
                     const std::string& claim_token = "");

 private:
  es::CommandPath& path_;
  ReadModel& read_;
  PetsProjection& projection_;
  PetKeys keys_;
  Topics topics_;
  redis::Script claim_;
};

}  // namespace petstore::pets
