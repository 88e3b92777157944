#include "ids/id_generator.h"

#include <chrono>
#include <stdexcept>
#include <thread>

namespace petstore::ids {

IdGenerator::IdGenerator(std::int64_t worker, Clock clock) : worker_(worker), clock_(std::move(clock)) {
  if (worker < 0 || worker > kMaxWorker) {
    throw std::invalid_argument("worker number out of range");
  }
}

std::int64_t IdGenerator::compose(std::int64_t unix_ms, std::int64_t worker, std::int64_t sequence) {
  return ((unix_ms - kEpochMs) << (kWorkerBits + kSequenceBits)) | (worker << kSequenceBits) | sequence;
}

void IdGenerator::set_worker(std::int64_t worker) {
  const std::lock_guard lock(mutex_);
  worker_ = worker;
}

std::int64_t IdGenerator::next() {
  const std::lock_guard lock(mutex_);
  for (;;) {
    const auto now = clock_();
    if (now > last_ms_) {
      last_ms_ = now;
      sequence_ = 0;
      return compose(now, worker_, 0);
    }
    if (now == last_ms_ && sequence_ < kMaxSequence) {
      return compose(now, worker_, ++sequence_);
    }
    // Sequence exhausted for this millisecond, or the clock stepped back:
    // wait for time to pass the last id handed out.
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

std::int64_t system_unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace petstore::ids
