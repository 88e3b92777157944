#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "kafka/consumer.h"
#include "kafka/handles.h"

namespace petstore::kafka {

// Reads one partition in offset order from a given offset, read_committed
// (records of aborted transactions are skipped), with no consumer
// group (nothing committed, nobody else's assignment moved): what a
// partition's single writer reads its own partition with.
class PartitionReader {
 public:
  PartitionReader(const std::string& brokers, const std::string& topic, std::int32_t partition,
                  std::int64_t from, int fetch_wait_max_ms = 100);
  ~PartitionReader();
  PartitionReader(const PartitionReader&) = delete;
  PartitionReader& operator=(const PartitionReader&) = delete;

  // The next record, or nullopt when none came within `wait`. Throws Unavailable on an error the
  // partition reports (other than its end).
  std::optional<Message> next(std::chrono::milliseconds wait);

  // The partition's last stable offset: the end a read_committed reader
  // reads up to (the high watermark when no transaction is open).
  std::int64_t end(int timeout_ms);

  // The offset after the last record or transaction marker this reader
  // has passed (markers are never handed over, but they move the
  // position): a caller reading up to an end offset stops here once it is
  // reached. RD_KAFKA_OFFSET_INVALID before anything was read.
  std::int64_t position();

 private:
  std::string topic_;
  std::int32_t partition_;
  HandlePtr rk_;
  QueuePtr queue_;
};

}  // namespace petstore::kafka
