#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "kafka/group_offsets.h"
#include "kafka/high_watermark.h"
#include "kafka/producer.h"
#include "redis/pool.h"

namespace petstore::es {

// Waits until the projection (whichever replica runs it) has applied a
// partition up to a given offset. Used before deciding when the read model
// may lag the log: after a lock holder died, or to bring the read model to
// the end of a topic before an invariant check (deleting a category).
class CatchUp {
 public:
  CatchUp(kafka::Producer& producer, const std::string& brokers, redis::Pool& pool, std::string offsets_key,
          std::chrono::milliseconds timeout);

  using Deadline = std::chrono::steady_clock::time_point;

  // Everything appended to the partition so far is applied: up to its high
  // watermark, so a record committed behind an open transaction (which a
  // read_committed consumer cannot read yet) is waited for, not missed.
  // Waits until the configured timeout or `deadline` (a lock's lease end),
  // whichever is first.
  void partition_end(const std::string& topic, std::int32_t partition, Deadline deadline = Deadline::max());
  // Every partition of the topic, to its current end.
  void topic_end(const std::string& topic, Deadline deadline = Deadline::max());
  // The record at `offset` (and all before it) is applied.
  void through(const std::string& topic, std::int32_t partition, std::int64_t offset);

 private:
  void wait_applied(const std::string& topic, std::int32_t partition, std::int64_t offset, Deadline deadline);
  [[nodiscard]] Deadline bounded(Deadline deadline) const;

  kafka::Producer& producer_;
  kafka::HighWatermark high_watermark_;
  redis::Pool& pool_;
  std::string offsets_key_;
  std::chrono::milliseconds timeout_;
};

// Waits until a consumer group (whichever replicas run it) has committed a
// partition up to its end: a reactor (projection::Reactor) commits its
// positions to Kafka once their events are handled. Used where a step of
// the saga rests on another reactor having handled everything so far (the
// inventory refuses an order for an unknown pet only once its pets
// reaction has caught up). Redis plays no part: a wiped Redis neither
// moves the positions nor stalls the wait.
class GroupCatchUp {
 public:
  GroupCatchUp(const std::string& brokers, std::string group, std::chrono::milliseconds timeout);

  // The group has handled everything appended to the partition so far (up
  // to its high watermark, as CatchUp). Throws Error(Lagging) after the
  // timeout.
  void partition_end(const std::string& topic, std::int32_t partition);

 private:
  kafka::HighWatermark high_watermark_;
  kafka::GroupOffsets offsets_;
  std::chrono::milliseconds timeout_;
};

}  // namespace petstore::es
