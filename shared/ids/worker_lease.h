#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "redis/pool.h"
#include "redis/script.h"

namespace petstore::ids {

// Leases one of the 64 worker numbers the IdGenerator embeds in ids, so no two
// live replicas (of any service in one deployment) share one. The lease is a
// Redis key with a TTL, renewed at a third of it; if it is ever lost (Redis was
// wiped and another process took the number) a new number is leased and
// `on_change` is told. A number freed by a dead process is only reusable once
// its TTL passed, so the new owner's clock is past every id the old one made
// (assuming clock skew between hosts below the TTL).
class WorkerLease {
 public:
  WorkerLease(redis::Pool& pool, std::string key_prefix, std::chrono::milliseconds ttl);
  ~WorkerLease();
  WorkerLease(const WorkerLease&) = delete;
  WorkerLease& operator=(const WorkerLease&) = delete;

  // Leases a number (throws if all 64 are taken or Redis is down), then
  // keeps renewing it in the background.
  std::int64_t start(std::function<void(std::int64_t)> on_change);

 private:
  std::int64_t acquire();
  void renew_loop();

  redis::Pool& pool_;
  std::string key_prefix_;
  std::string instance_;
  std::chrono::milliseconds ttl_;
  redis::Script acquire_script_;
  redis::Script renew_script_;
  std::function<void(std::int64_t)> on_change_;
  std::atomic<std::int64_t> worker_{-1};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread renewer_;
};

}  // namespace petstore::ids
