#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "es/aggregate_lock.h"
#include "es/catch_up.h"
#include "es/event_log.h"
#include "redis/pool.h"

namespace petstore::es {

// What applying a command's own event to the read model found.
enum class ApplyOutcome {
  Applied,
  Duplicate,  // already applied (by the projection, which got there first)
  Behind,     // an earlier event of the aggregate is not applied yet
};

// Applies the just-appended event to the read model; gets the event as it
// was appended (its time, id, version).
using ApplyOwn = std::function<ApplyOutcome(redis::Connection&, const events::Envelope& appended)>;

// The path every command of every service takes from decision to 2xx: the
// aggregate lock (catching the read model up when its previous holder died),
// the append to the log, and applying the command's own event so the 2xx is
// readable at once from any replica. docs/consistency.md explains why.
class CommandPath {
 public:
  CommandPath(EventLog& log, AggregateLock& locks, CatchUp& catch_up, redis::Pool& pool,
              std::chrono::milliseconds lease, std::chrono::milliseconds delivery_timeout);

  // Holds the aggregate's lock; if its previous holder died, first brings
  // the read model to the end of the aggregate's partition.
  // `subject` is the aggregate's id as its events' ce_subject and record key.
  AggregateLock::Held lock(const std::string& lock_key, const std::string& topic, const std::string& subject);
  AggregateLock::Held lock(const std::string& lock_key, const std::string& topic, std::int64_t id) {
    return lock(lock_key, topic, std::to_string(id));
  }

  // Brings the read model to the end of the aggregate's partition, waiting
  // no longer than `deadline` (a held lock's lease end).
  void catch_up_aggregate(const std::string& topic, const std::string& subject,
                          CatchUp::Deadline deadline = CatchUp::Deadline::max());
  void catch_up_aggregate(const std::string& topic, std::int64_t id,
                          CatchUp::Deadline deadline = CatchUp::Deadline::max()) {
    catch_up_aggregate(topic, std::to_string(id), deadline);
  }

  // Appends the event and applies it with `apply`. When the outcome is
  // uncertain (the append may have happened but is not applied) `guard` is
  // marked so the next lock holder catches up. Under a lock, the append only
  // starts if it is sure to finish (delivery timeout) before the lease ends;
  // otherwise 503 and nothing is appended. Returns the event time.
  std::string commit(const NewEvent& event, LockGuard* guard, const ApplyOwn& apply);

  AggregateLock& locks() { return locks_; }
  CatchUp& catch_up() { return catch_up_; }
  redis::Pool& pool() { return pool_; }
  [[nodiscard]] std::chrono::milliseconds lease() const { return lease_; }

 private:
  EventLog& log_;
  AggregateLock& locks_;
  CatchUp& catch_up_;
  redis::Pool& pool_;
  std::chrono::milliseconds lease_;
  std::chrono::milliseconds delivery_timeout_;
};

}  // namespace petstore::es
