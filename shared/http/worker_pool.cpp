#include "http/worker_pool.h"

namespace petstore::http {

WorkerPool::WorkerPool(size_t threads, size_t max_queued) : max_queued_(max_queued) {
  workers_.reserve(threads);
  for (size_t i = 0; i < threads; ++i) {
    workers_.emplace_back([this] { work(); });
  }
}

WorkerPool::~WorkerPool() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  has_job_.notify_all();
  for (auto& t : workers_) {
    t.join();
  }
}

bool WorkerPool::try_post(std::function<void()> job) {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_ || jobs_.size() >= max_queued_) {
      return false;
    }
    jobs_.push_back(std::move(job));
  }
  has_job_.notify_one();
  return true;
}

void WorkerPool::work() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      has_job_.wait(lock, [this] { return !jobs_.empty() || stopping_; });
      if (jobs_.empty()) {
        return;  // stopping, and every queued job has run
      }
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

}  // namespace petstore::http
