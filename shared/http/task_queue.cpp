#include "http/task_queue.h"

namespace petstore::http {
namespace {

thread_local Connection* tl_connection = nullptr;

}  // namespace

Connection* current_connection() {
  return tl_connection;
}

TaskQueue::TaskQueue(size_t threads, size_t max_queued) : max_queued_(max_queued) {
  main_.threads.reserve(threads);
  for (size_t i = 0; i < threads; ++i) {
    main_.threads.emplace_back([this] { work(main_, false); });
  }
  overflow_.threads.emplace_back([this] { work(overflow_, true); });
}

TaskQueue::~TaskQueue() {
  shutdown();
}

size_t TaskQueue::idle() const {
  std::lock_guard lock(main_.mutex);
  return main_.idle;
}

void TaskQueue::run(const std::function<void()>& fn, bool overflow) {
  Connection connection;
  connection.overflow = overflow;
  tl_connection = &connection;
  fn();
  tl_connection = nullptr;
}

void TaskQueue::enqueue(std::function<void()> fn) {
  {
    std::lock_guard lock(main_.mutex);
    // Idle workers count as room: in a burst, the accepting thread can
    // queue connections faster than sleeping workers wake to take them.
    if (main_.jobs.size() < max_queued_ + main_.idle) {
      main_.jobs.push_back(std::move(fn));
      waiting_.store(main_.jobs.size() > main_.idle ? main_.jobs.size() - main_.idle : 0,
                     std::memory_order_relaxed);
      main_.wake.notify_one();
      return;
    }
  }
  {
    std::lock_guard lock(overflow_.mutex);
    if (overflow_.jobs.size() < max_queued_) {
      overflow_.jobs.push_back(std::move(fn));
      overflow_.wake.notify_one();
      return;
    }
  }
  run(fn, true);
}

void TaskQueue::work(Lane& lane, bool overflow) {
  for (;;) {
    std::function<void()> fn;
    {
      std::unique_lock lock(lane.mutex);
      ++lane.idle;
      lane.wake.wait(lock, [&] { return stopping_.load() || !lane.jobs.empty(); });
      --lane.idle;
      if (lane.jobs.empty()) {
        return;  // stopping, and nothing left to serve
      }
      fn = std::move(lane.jobs.front());
      lane.jobs.pop_front();
      if (!overflow) {
        waiting_.store(lane.jobs.size() > lane.idle ? lane.jobs.size() - lane.idle : 0,
                       std::memory_order_relaxed);
      }
    }
    run(fn, overflow);
  }
}

void TaskQueue::shutdown() {
  if (stopping_.exchange(true)) {
    return;
  }
  for (auto* lane : {&main_, &overflow_}) {
    { std::lock_guard lock(lane->mutex); }
    lane->wake.notify_all();
  }
  for (auto* lane : {&main_, &overflow_}) {
    for (auto& t : lane->threads) {
      t.join();
    }
  }
}

}  // namespace petstore::http
