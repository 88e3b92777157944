#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "domain/events.h"
#include "es/aggregate_lock.h"
#include "es/catch_up.h"
#include "es/event_log.h"
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

// What every command of the pets service goes through: the aggregate lock,
// catching up after a dead holder, claiming a category, appending to the log
// and applying the command's own event so the 2xx is readable at once.
class WritePath {
 public:
  WritePath(es::EventLog& log, es::AggregateLock& locks, es::CatchUp& catch_up, redis::Pool& pool,
            ReadModel& read, PetsProjection& projection, PetKeys keys, Topics topics,
            std::chrono::milliseconds lease, std::chrono::milliseconds delivery_timeout);

  [[nodiscard]] const std::string& topic_for(const Event& e) const;
  [[nodiscard]] const Topics& topics() const { return topics_; }
  [[nodiscard]] const PetKeys& keys() const { return keys_; }
  ReadModel& read() { return read_; }
  es::AggregateLock& locks() { return locks_; }
  es::CatchUp& catch_up() { return catch_up_; }
  redis::Pool& pool() { return pool_; }
  [[nodiscard]] std::chrono::milliseconds lease() const { return lease_; }

  // Holds the aggregate's lock; if its previous holder died, first brings
  // the read model to the end of the aggregate's partition.
  es::AggregateLock::Held lock(const std::string& lock_key, const std::string& topic, std::int64_t id);

  // Brings the read model to the end of the aggregate's partition, waiting
  // no longer than `deadline` (a held lock's lease end).
  void catch_up_aggregate(const std::string& topic, std::int64_t id,
                          es::CatchUp::Deadline deadline = es::CatchUp::Deadline::max());

  // Reserves `category_id` for a pet being created in or moved to it; 422
  // unknown_category or 409 category_closing when it cannot be. Returns the
  // claim token.
  std::string claim_category(std::int64_t category_id);
  void release_claim(std::int64_t category_id, const std::string& token) noexcept;

  // Appends the event at `version` and applies it to the read model. When the
  // outcome is uncertain (the append may have happened but is not applied)
  // `guard` is marked so the next lock holder catches up. Under a lock, the
  // append only starts if it is sure to finish (delivery timeout) before the
  // lease ends; otherwise 503 and nothing is appended. Returns the event time.
  std::string commit(const Event& event, std::int64_t version, es::LockGuard* guard,
                     const std::string& claim_token = "");

 private:
  es::EventLog& log_;
  es::AggregateLock& locks_;
  es::CatchUp& catch_up_;
  redis::Pool& pool_;
  ReadModel& read_;
  PetsProjection& projection_;
  PetKeys keys_;
  Topics topics_;
  std::chrono::milliseconds lease_;
  std::chrono::milliseconds delivery_timeout_;
  redis::Script claim_;
};

}  // namespace petstore::pets
