#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "redis/pool.h"

namespace petstore::es {

// Where each partition's owner answers, as owners say it: a Redis hash
// "<topic>" -> {partition: base URL}, written by an owner when it claims
// (es::OwnerLog). Only a routing hint: a replica that gets a command for a
// partition it does not own forwards it there, and a hint that is wrong
// (the partition moved, Redis was wiped) costs a 503 writer_moving, never a
// wrong write, since the single writer's fence does not depend on it.
class OwnerHints {
 public:
  // `key` is the hash, e.g. es::KeySpace::owners(topic).
  OwnerHints(redis::Pool& pool, std::string key,
             std::chrono::milliseconds cache_for = std::chrono::milliseconds(500));

  // Records that `url` owns `partition`. Logs and goes on when Redis fails:
  // a missing hint only costs a forward.
  void record(std::int32_t partition, const std::string& url) noexcept;
  // The owner's URL as last recorded, read at most every `cache_for` per
  // partition; empty when unknown or when Redis fails.
  [[nodiscard]] std::string lookup(std::int32_t partition);

 private:
  struct Cached {
    std::string url;
    std::chrono::steady_clock::time_point until;
  };
  redis::Pool& pool_;
  std::string key_;
  std::chrono::milliseconds cache_for_;
  std::mutex mutex_;
  std::unordered_map<std::int32_t, Cached> cache_;
};

}  // namespace petstore::es
