#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace petstore::http {

// Threads for handlers that block (writes wait for Kafka's acks, the lock,
// the projection): the event loops hand them over and go on serving. The
// queue is bounded and a full one refuses work instead of growing, so
// overload turns into quick 503s rather than memory and latency.
class WorkerPool {
 public:
  WorkerPool(size_t threads, size_t max_queued);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // False when the queue is full (or the pool is stopping): the caller answers.
  bool try_post(std::function<void()> job);

 private:
  void work();

  size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable has_job_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace petstore::http
