#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "journal/store.h"
#include "kafka/handles.h"

namespace petstore::tools::journal {

// Follows every partition of the local broker with an ordinary Kafka
// consumer (no group, nothing committed) and appends each record it reads
// to the journal: the broker program's way to keep a log that librdkafka's
// mock cluster holds only in memory. The journal trails the broker by one
// fetch; what that means for a crash is in docs/local-log.md.
class Recorder {
 public:
  // `next` holds, per partition, the first offset not yet journaled.
  using Key = std::pair<std::string, std::int32_t>;
  Recorder(Store& store, const std::string& bootstrap, std::map<Key, std::int64_t> next);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  void start();
  // Follows a topic created after start(), from offset 0. Thread-safe.
  void add_topic(const TopicSpec& topic);
  // Reads every partition up to its end as the broker reports it now,
  // journals and syncs it, and stops. Call once the broker takes no more
  // records (scripts/down stops the services first). Returns false if the
  // end was not reached within `limit`.
  bool drain_and_stop(std::chrono::milliseconds limit);

  // Empty while every record has been journaled in order; otherwise why not
  // (a partition whose records the broker dropped before they were read).
  [[nodiscard]] std::string problem() const;
  [[nodiscard]] std::int64_t recorded() const { return recorded_.load(); }

 private:
  void run();
  void assign_all();
  void reassign_if_asked();
  // Polls one batch and journals it; returns the number of records journaled.
  std::size_t step(std::chrono::milliseconds wait);
  [[nodiscard]] bool caught_up(const std::map<Key, std::int64_t>& ends);

  Store& store_;
  kafka::HandlePtr rk_;
  void mark_broken(const Key& key, std::string why);  // with mutex_ held

  mutable std::mutex mutex_;  // next_, reassign_, broken_, problem_
  std::map<Key, std::int64_t> next_;
  bool reassign_ = false;
  std::map<Key, bool> broken_;
  std::string problem_;
  std::atomic<bool> stop_{false};
  std::atomic<std::int64_t> recorded_{0};
  std::chrono::steady_clock::time_point last_sync_;
  std::thread thread_;
};

}  // namespace petstore::tools::journal
