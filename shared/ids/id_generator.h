#pragma once

#include <cstdint>
#include <functional>
#include <mutex>

namespace petstore::ids {

// Time-ordered 53-bit ids: 41 bits of milliseconds since 2026-01-01T00:00Z,
// 6 bits of worker number, 6 bits of sequence. 53 bits keeps every id exact in
// JavaScript numbers (Number.MAX_SAFE_INTEGER = 2^53 - 1), which matters to
// browser clients. Ids never repeat while no two live processes share a worker
// number (see WorkerLease) and never collide with the past because time only
// moves forward (a clock that steps back makes next() wait for it).
class IdGenerator {
 public:
  static constexpr std::int64_t kEpochMs = 1'767'225'600'000;  // 2026-01-01T00:00:00Z
  static constexpr int kWorkerBits = 6;
  static constexpr int kSequenceBits = 6;
  static constexpr std::int64_t kMaxWorker = (1 << kWorkerBits) - 1;
  static constexpr std::int64_t kMaxSequence = (1 << kSequenceBits) - 1;

  using Clock = std::function<std::int64_t()>;  // unix milliseconds

  IdGenerator(std::int64_t worker, Clock clock);

  std::int64_t next();
  void set_worker(std::int64_t worker);

  static std::int64_t compose(std::int64_t unix_ms, std::int64_t worker, std::int64_t sequence);

 private:
  std::mutex mutex_;
  std::int64_t worker_;
  Clock clock_;
  std::int64_t last_ms_ = 0;
  std::int64_t sequence_ = 0;
};

std::int64_t system_unix_ms();

}  // namespace petstore::ids
