#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kafka/consumer.h"

namespace petstore::audit {

// Which records are read, in every partition: those before `until_offset`
// and no later than the end as it stood when reading began; of those, the
// ones whose timestamp is not after `until_time_ms`.
struct ReadBounds {
  std::optional<std::int64_t> until_offset;
  std::optional<std::int64_t> until_time_ms;
};

class Progress;

// Reads whole topics from their first record to the bounds, every partition,
// without a consumer group (nothing is committed, and no one else's
// assignment moves). Records of one partition arrive in order; partitions
// interleave.
//
// The partitions are spread over `consumers` librdkafka consumers, read by
// the calling thread in turn. librdkafka keeps one fetch in flight per
// broker connection, so one consumer waits a round trip for every fetch;
// several keep several fetches in flight (one consumer left verify idle
// for much of its run).
class LogReader {
 public:
  static constexpr int kDefaultConsumers = 4;

  LogReader(const std::string& brokers, const std::vector<std::string>& topics, const ReadBounds& bounds,
            int consumers = kDefaultConsumers);
  ~LogReader();
  LogReader(const LogReader&) = delete;
  LogReader& operator=(const LogReader&) = delete;

  // Records between the first offsets and the bounds: what read() will deliver.
  [[nodiscard]] std::int64_t expected() const { return expected_; }
  [[nodiscard]] int partitions(const std::string& topic) const;

  // Calls `on_record` for each record and its timestamp (ms since the epoch).
  // Throws std::runtime_error when the broker stops answering for `stall`.
  void read(const std::function<void(const kafka::Message&, std::int64_t)>& on_record, Progress* progress,
            std::chrono::milliseconds stall = std::chrono::seconds(30));

 private:
  struct Range {
    std::string topic;
    std::int32_t partition = 0;
    std::int64_t begin = 0;
    std::int64_t end = 0;
  };
  std::vector<kafka::HandlePtr> consumers_;
  std::vector<Range> ranges_;
  std::vector<std::pair<std::string, int>> partition_counts_;
  std::int64_t expected_ = 0;
  std::optional<std::int64_t> until_time_ms_;
};

}  // namespace petstore::audit
