#include "ids/worker_lease.h"

#include <spdlog/spdlog.h>

#include "embedded/worker_acquire.lua.h"
#include "embedded/worker_release.lua.h"
#include "embedded/worker_renew.lua.h"
#include "events/envelope.h"
#include "ids/id_generator.h"

namespace petstore::ids {

WorkerLease::WorkerLease(redis::Pool& pool, std::string key_prefix, std::chrono::milliseconds ttl)
    : pool_(pool),
      key_prefix_(std::move(key_prefix) + ":idgen:worker:"),
      instance_(events::new_event_id()),
      ttl_(ttl),
      acquire_script_(kWorkerAcquireLua),
      renew_script_(kWorkerRenewLua) {}

WorkerLease::~WorkerLease() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (renewer_.joinable()) {
    renewer_.join();
  }
  try {
    const auto key = key_prefix_ + std::to_string(worker_.load());
    pool_.run([&](redis::Connection& c) {
      // A clean stop shortens our lease to a one-second cool-down rather than
      // deleting it: a successor on a host whose clock lags ours by less than
      // that still cannot mint an id we already handed out.
      return redis::Script(kWorkerReleaseLua).run(c, {key}, {instance_});
    });
  } catch (const std::exception&) {
    // Best effort: the TTL frees the number anyway.
  }
}

std::int64_t WorkerLease::acquire() {
  const auto ttl = std::to_string(ttl_.count());
  const auto count = std::to_string(IdGenerator::kMaxWorker + 1);
  const auto n = pool_.run_idempotent([&](redis::Connection& c) {
    return redis::as_integer(
        redis::expect_ok(acquire_script_.run(c, {key_prefix_}, {instance_, ttl, count})));
  });
  if (n < 0) {
    throw std::runtime_error("all id worker numbers are leased; too many replicas running");
  }
  worker_ = n;
  return n;
}

std::int64_t WorkerLease::start(std::function<void(std::int64_t)> on_change) {
  on_change_ = std::move(on_change);
  const auto n = acquire();
  renewer_ = std::thread([this] { renew_loop(); });
  return n;
}

void WorkerLease::renew_loop() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, ttl_ / 3, [this] { return stop_; })) {
    try {
      const auto key = key_prefix_ + std::to_string(worker_.load());
      const auto ours = pool_.run_idempotent([&](redis::Connection& c) {
        return redis::as_integer(
            redis::expect_ok(renew_script_.run(c, {key}, {instance_, std::to_string(ttl_.count())})));
      });
      if (ours == 0) {
        spdlog::error("id worker lease {} was taken by another process; leasing a new one", key);
        on_change_(acquire());
      }
    } catch (const std::exception& e) {
      spdlog::warn("id worker lease renewal failed: {}", e.what());
    }
  }
}

}  // namespace petstore::ids
