#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "kafka/consumer.h"
#include "kafka/handles.h"

namespace petstore::kafka {

// Reads one partition in offset order from a given offset, with no consumer
// group (nothing committed, nobody else's assignment moved): what a
// partition's single writer reads its own partition with.
class PartitionReader {
 public:
  PartitionReader(const std::string& brokers, const std::string& topic, std::int32_t partition,
                  std::int64_t from, int fetch_wait_max_ms = 100);
  ~PartitionReader();
  PartitionReader(const PartitionReader&) = delete;
  PartitionReader& operator=(const PartitionReader&) = delete;

  // The next record, or nullopt when none came within `wait` (or the one
  // that came was handed over before). Throws Unavailable on an error the
  // partition reports (other than its end).
  std::optional<Message> next(std::chrono::milliseconds wait);

  // The partition's high watermark: the offset its next record will get.
  std::int64_t end(int timeout_ms);

  // Stops fetching until resume_at(). An idle reader costs the broker a
  // fetch every fetch.wait.max.ms; a paused one costs nothing. Records fetched but not yet
  // handed over are dropped. Throws Unavailable.
  void pause();
  // Fetches again, from `offset` (the offset after the last record the
  // caller took; RD_KAFKA_OFFSET_BEGINNING before any), without waiting
  // for the client to have moved there. Throws Unavailable.
  void resume_at(std::int64_t offset);

 private:
  std::string topic_;
  std::int32_t partition_;
  HandlePtr rk_;
  QueuePtr queue_;
  // The last record's offset next() handed over: records come in offset
  // order, so one at or below it is a record fetched again.
  std::int64_t handed_over_ = -1;
};

}  // namespace petstore::kafka
