#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "kafka/producer.h"
#include "redis/pool.h"

namespace petstore::es {

// Waits until the projection (whichever replica runs it) has applied a
// partition up to a given offset. Used before deciding when the read model
// may lag the log: after a lock holder died, or to bring the read model to
// the end of a topic before an invariant check (deleting a category).
class CatchUp {
 public:
  CatchUp(kafka::Producer& producer, redis::Pool& pool, std::string offsets_key,
          std::chrono::milliseconds timeout);

  using Deadline = std::chrono::steady_clock::time_point;

  // Everything appended to the partition so far is applied. Waits until the
  // configured timeout or `deadline` (a lock's lease end), whichever is first.
  void partition_end(const std::string& topic, std::int32_t partition, Deadline deadline = Deadline::max());
  // Every partition of the topic, to its current end.
  void topic_end(const std::string& topic, Deadline deadline = Deadline::max());
  // The record at `offset` (and all before it) is applied.
  void through(const std::string& topic, std::int32_t partition, std::int64_t offset);

 private:
  void wait_applied(const std::string& topic, std::int32_t partition, std::int64_t offset, Deadline deadline);
  [[nodiscard]] Deadline bounded(Deadline deadline) const;

  kafka::Producer& producer_;
  redis::Pool& pool_;
  std::string offsets_key_;
  std::chrono::milliseconds timeout_;
};

}  // namespace petstore::es
