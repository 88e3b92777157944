#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <httplib.h>

namespace petstore::http {

// What the server knows about the connection the current thread is serving.
// cpp-httplib runs a whole keep-alive connection as one task on one thread,
// so state kept per task is state per connection.
struct Connection {
  // Framing was lost (a body left unread, a request refused before its
  // body): every later request on the connection is refused unread.
  bool poisoned = false;
  // Accepted while every worker was busy and the queue full: answered 503.
  bool overflow = false;
  // The connection's TCP socket, to cork each response
  // (http/response_cork.h): empty until its first request looks it up,
  // then -1 if it is not TCP or was not found.
  std::optional<int> socket;
};

// The Connection of the task running on this thread, or nullptr outside one.
Connection* current_connection();

// cpp-httplib's task queue for the server: `threads` workers, each serving
// one connection at a time, and at most `max_queued` accepted connections
// waiting for one. cpp-httplib 0.11's enqueue() cannot refuse a task (its
// socket would leak), so a connection past the bound goes to one overflow
// thread that answers its request 503 overloaded and closes it; if that
// thread's queue is full too, the accepting thread answers it itself, which
// slows accepting down: the backpressure overload calls for.
class TaskQueue : public httplib::TaskQueue {
 public:
  TaskQueue(size_t threads, size_t max_queued);
  ~TaskQueue() override;
  TaskQueue(const TaskQueue&) = delete;
  TaskQueue& operator=(const TaskQueue&) = delete;

  void enqueue(std::function<void()> fn) override;
  // Serves what is queued, then joins every thread.
  void shutdown() override;

  // Connections waiting for a worker (a busy worker's hint to close its
  // keep-alive connection after the current response and make room); the
  // bound on them is `max_queued` beyond the workers that are idle.
  [[nodiscard]] size_t waiting() const { return waiting_.load(std::memory_order_relaxed); }
  // Workers waiting for a connection.
  [[nodiscard]] size_t idle() const;

 private:
  struct Lane {
    mutable std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::function<void()>> jobs;
    size_t idle = 0;  // workers waiting for a job
    std::vector<std::thread> threads;
  };
  void work(Lane& lane, bool overflow);
  static void run(const std::function<void()>& fn, bool overflow);

  size_t max_queued_;
  std::atomic<bool> stopping_{false};
  std::atomic<size_t> waiting_{0};
  Lane main_;
  Lane overflow_;
};

}  // namespace petstore::http
