#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "es/key_space.h"
#include "kafka/consumer.h"
#include "redis/pool.h"
#include "redis/script.h"

namespace petstore::projection {

// A service's projection logic: how one consumed event is applied to Redis.
// Implementations queue exactly one command per message on the pipeline, a
// script that applies the event and records its offset atomically, so a crash
// between the two is impossible and redelivery is detected by the offset.
class Applier {
 public:
  virtual ~Applier() = default;
  virtual void queue(redis::Connection& conn, const kafka::Message& message) = 0;
  // Every script queue() may use, so they can be loaded before pipelining.
  [[nodiscard]] virtual std::vector<const redis::Script*> scripts() const = 0;
};

// Applies a batch of consumed records through one Redis pipeline, one
// queued script per record, and checks every reply. If Redis lost its script
// cache the batch is sent again after loading the scripts (applying is
// idempotent per record). Throws redis::CommandError or redis::Unavailable;
// the caller retries the whole batch. The one path from the log to a read
// model: the services' Runner and petstore-audit's rebuild both use it.
void apply_batch(redis::Connection& conn, Applier& applier, const std::vector<kafka::Message>& batch);

// Routes each record to the Applier of its topic: one pipeline can then carry
// the records of several services' topics (petstore-audit's rebuild). A
// record of a topic with no Applier is a programming error.
class ByTopic : public Applier {
 public:
  void add(const std::string& topic, Applier& applier) { routes_[topic] = &applier; }
  void queue(redis::Connection& conn, const kafka::Message& message) override;
  [[nodiscard]] std::vector<const redis::Script*> scripts() const override;

 private:
  std::map<std::string, Applier*, std::less<>> routes_;
};

struct RunnerStats {
  std::atomic<std::uint64_t> applied{0};
  std::atomic<std::uint64_t> batches{0};
  std::atomic<std::uint64_t> redis_failures{0};
};

// Runs a consumer-group member that feeds batches of events to the Applier
// through one Redis pipeline. On assignment it resumes each partition from the
// offset the read model recorded (or the beginning, for an empty read model,
// which is how a wiped read model is rebuilt). If Redis fails, the same batch
// is retried until it succeeds: events are never skipped.
class Runner {
 public:
  Runner(const kafka::ConsumerSettings& settings, redis::Pool& pool, std::string offsets_key,
         Applier& applier);
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  void start();
  // True once the group has handed this member its first assignment (even an
  // empty one): until every replica has, the group is still forming and
  // events wait unconsumed, so the replica reports itself not ready.
  [[nodiscard]] bool joined() const { return joined_; }
  [[nodiscard]] const RunnerStats& stats() const { return stats_; }

 private:
  void loop();
  void apply(const std::vector<kafka::Message>& batch);
  std::map<kafka::TopicPartition, std::int64_t> start_offsets(
      const std::vector<kafka::TopicPartition>& assigned);

  kafka::ConsumerSettings settings_;
  redis::Pool& pool_;
  std::string offsets_key_;
  Applier& applier_;
  RunnerStats stats_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> joined_{false};
  std::thread thread_;
};

}  // namespace petstore::projection
