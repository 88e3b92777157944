#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "es/key_space.h"
#include "kafka/consumer.h"
#include "projection/applier.h"
#include "redis/pool.h"
#include "redis/script.h"

namespace petstore::projection {

// Where a consumer stands in each partition it applies: the offset of the
// last record it applied, or -1 when it started at the partition's beginning.
using Applied = std::map<kafka::TopicPartition, std::int64_t>;

// Applies a batch of consumed records: each Applier folds its records (one
// round trip to read what the folds need), then one pipeline runs
// project.lua once per record, and every reply is checked. If Redis lost its script
// cache the batch is sent again after loading the scripts (applying is
// idempotent per record). Throws redis::CommandError or redis::Unavailable;
// the caller retries the whole batch. The one path from the log to a read
// model: the services' Runner and petstore-audit's rebuild both use it.
// `applied` is where the caller stands in each partition (absent: -1); it is
// advanced past every record applied or found applied already, and left as
// it was when this throws. Returns the partitions whose recorded position
// fell below it (the read model was wiped or went back): none of their
// records was applied, and the caller must resume them from the read
// model's own position.
std::set<kafka::TopicPartition> apply_batch(redis::Connection& conn, Applier& applier,
                                            const std::vector<kafka::Message>& batch, Applied& applied);

// The offset of the last record applied in each of `partitions`, as the
// hash `positions_key` records it ("<topic>:<partition>" -> offset); a
// partition with no recorded position is absent.
Applied recorded_positions(redis::Pool& pool, const std::string& positions_key,
                           const std::vector<kafka::TopicPartition>& partitions);

// Moves the positions in the hash `positions_key` from `from` (where the
// caller last stood in each partition) to `to`, in one round trip
// (record_positions.lua). A position never moves back, and one the read
// model lost (recorded below `from`) is left for the caller to replay.
void record_positions(redis::Pool& pool, const std::string& positions_key, const Applied& from,
                      const Applied& to);

struct RunnerStats {
  std::atomic<std::uint64_t> applied{0};
  std::atomic<std::uint64_t> batches{0};
  std::atomic<std::uint64_t> redis_failures{0};
  std::atomic<std::uint64_t> rewinds{0};  // partitions resumed after the read model lost them
};

// Runs a consumer-group member that feeds batches of events to the Applier
// through one Redis pipeline. On assignment it resumes each partition from the
// offset the read model recorded (or the beginning, for an empty read model,
// which is how a wiped read model is rebuilt). When a batch finds that the
// read model lost what this member applied (apply_batch's gaps), it seeks
// those partitions back the same way. If Redis fails, the same batch is
// retried until it succeeds: events are never skipped.
class Runner {
 public:
  // `ready_key`: the read model's ready marker (projection::Readiness),
  // taken away when the log lost records the read model holds.
  Runner(const kafka::ConsumerSettings& settings, redis::Pool& pool, std::string offsets_key,
         std::string ready_key, Applier& applier);
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  void start();
  // True once the group has handed this member its first assignment (even an
  // empty one): until every replica has, the group is still forming and
  // events wait unconsumed, so the replica reports itself not ready.
  [[nodiscard]] bool joined() const { return joined_; }
  [[nodiscard]] const RunnerStats& stats() const { return stats_; }
  // Asks the runner to compare the read model's positions with what it has
  // applied, and to replay any partition the read model lost, even if no
  // new record arrives to reveal it (projection::Readiness asks while the
  // read model is not ready). Returns at once; the runner's thread checks.
  void verify_positions() { verify_ = true; }

 private:
  void loop();
  // Applies a polled batch (retrying until it is applied) and replays the
  // partitions the read model lost; false when the runner stopped first.
  bool apply(kafka::Consumer& consumer, const std::vector<kafka::Message>& batch);
  // Runs `step` until it succeeds or the runner stops; false if stopped.
  bool until_done(const char* what, const std::function<void()>& step);
  // Partitions of the assignment whose recorded position is below applied_.
  std::vector<kafka::TopicPartition> lost_partitions(kafka::Consumer& consumer);
  bool resume_lost(kafka::Consumer& consumer, const std::vector<kafka::TopicPartition>& lost);
  // Records, for each partition whose last entries are transaction markers
  // (which move the consumer's position but are never handed over), the
  // last marker's offset as applied: the log's last stable offset is past
  // it, and whoever waits for the read model to reach that end
  // (Readiness, es::CatchUp) would otherwise wait for a record that never
  // comes. Called every kMarkersEvery at most: a record applied after
  // the markers records a later position anyway.
  void record_markers(kafka::Consumer& consumer);
  static constexpr std::chrono::milliseconds kMarkersEvery{100};
  std::chrono::steady_clock::time_point markers_recorded_;
  // The log lost records of `tp` the read model applied (kafka::Consumer's
  // loss): the read model stops being ready, and `tp` is applied again
  // from its start, over a position recorded anew.
  void lost(const kafka::TopicPartition& tp);
  std::map<kafka::TopicPartition, std::int64_t> start_offsets(
      const std::vector<kafka::TopicPartition>& assigned);

  kafka::ConsumerSettings settings_;
  redis::Pool& pool_;
  std::string offsets_key_;
  std::string ready_key_;
  Applier& applier_;
  Applied applied_;  // only the runner's thread (and its rebalance callback) touches it
  RunnerStats stats_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> joined_{false};
  std::atomic<bool> verify_{false};
  std::thread thread_;
};

}  // namespace petstore::projection
