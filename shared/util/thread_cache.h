#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace petstore::util {

// Runs each task on a thread of its own at once, as std::async(launch::async)
// does, but keeps a thread whose task is done for the next task instead of
// ending it; a thread idle for `keep_idle` ends. A reactor handles each
// polled batch's aggregates side by side, and a thread made and ended for
// each of them (clone, then the stack's madvise and munmap with their TLB
// shoot-downs across both cores) cost a good part of an order's CPU.
//
// Tasks never wait for a free thread, so a task that blocks on another
// (one aggregate's step waiting on another's) cannot deadlock here. That is
// why this is not http::TaskQueue, the server's pool: it has a fixed number
// of workers and queues what comes beyond them.
class ThreadCache {
 public:
  explicit ThreadCache(std::chrono::milliseconds keep_idle = std::chrono::seconds(30))
      : keep_idle_(keep_idle) {}

  // Waits for the tasks already given to finish.
  ~ThreadCache() {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    queued_.notify_all();
    for (auto& t : threads_) {
      t.join();
    }
  }

  ThreadCache(const ThreadCache&) = delete;
  ThreadCache& operator=(const ThreadCache&) = delete;

  // Starts `task` now, on an idle thread or a new one; its result or
  // exception comes through the future.
  template <typename F>
  std::future<std::invoke_result_t<F&>> run(F task) {
    using Result = std::invoke_result_t<F&>;
    auto job = std::make_shared<std::packaged_task<Result()>>(std::move(task));
    auto result = job->get_future();
    bool wake = false;
    {
      const std::lock_guard lock(mutex_);
      join_ended();
      queue_.emplace_back([job] { (*job)(); });
      if (idle_ >= queue_.size()) {
        wake = true;
      } else {
        threads_.emplace_back([this] { work(); });
      }
    }
    if (wake) {
      queued_.notify_one();
    }
    return result;
  }

  // Threads alive now, idle or not, and those waiting for a task (for tests).
  [[nodiscard]] std::size_t threads() {
    const std::lock_guard lock(mutex_);
    join_ended();
    return threads_.size();
  }
  [[nodiscard]] std::size_t idle() {
    const std::lock_guard lock(mutex_);
    return idle_;
  }

 private:
  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      ++idle_;
      const bool got = queued_.wait_for(lock, keep_idle_, [this] { return stop_ || !queue_.empty(); });
      --idle_;
      if (queue_.empty()) {
        if (stop_ || !got) {
          if (!stop_) {
            ended_.push_back(std::this_thread::get_id());  // joined by the next run()
          }
          return;
        }
        continue;
      }
      auto job = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      job();  // a packaged_task: what it throws goes to its future
      lock.lock();
    }
  }

  // Joins the threads that ended idle; the caller holds the mutex (an
  // ended thread touches nothing of this after it recorded itself, so the
  // join waits only for its exit).
  void join_ended() {
    for (const auto id : ended_) {
      for (auto it = threads_.begin(); it != threads_.end(); ++it) {
        if (it->get_id() == id) {
          it->join();
          threads_.erase(it);
          break;
        }
      }
    }
    ended_.clear();
  }

  std::chrono::milliseconds keep_idle_;
  std::mutex mutex_;
  std::condition_variable queued_;
  std::deque<std::function<void()>> queue_;
  std::size_t idle_ = 0;  // threads waiting for a task
  bool stop_ = false;
  std::vector<std::thread> threads_;
  std::vector<std::thread::id> ended_;
};

}  // namespace petstore::util
