#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "http/request_parser.h"
#include "http/router.h"
#include "http/socket.h"
#include "http/worker_pool.h"

namespace petstore::http {

struct ServerOptions;
class Inbox;

// One thread's share of the HTTP server: an epoll loop that accepts from the
// shared listening socket, reads and parses requests, hands each to the
// router, and writes responses back. A connection is served by one loop for
// its life, one request at a time (pipelined requests wait in its buffer).
// Nothing here blocks: handlers that may block run on the worker pool, and
// responses finished on other threads come back through the loop's inbox
// (a queue and an eventfd), so under load a loop wakes once per batch of
// responses rather than once per request.
class EventLoop {
 public:
  EventLoop(int listen_fd, const ServerOptions& options, const Router& router, WorkerPool& workers);
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Serves until stop(); then answers what still arrives on open
  // connections with Connection: close, closes each once it has been idle a
  // second, and returns when none is left (at most 5 s after the stop).
  void run();
  // From any thread.
  void stop();

 private:
  struct Connection;
  using Clock = std::chrono::steady_clock;

  void accept_all();
  void on_ready(Connection& c, std::uint32_t events);
  void read_from(Connection& c);
  void process(Connection& c);
  void start(Connection& c, const ExchangePtr& ex, const Parsed& parsed);
  void reject(Connection& c, int status, const std::string& message);
  void take_completions();
  void write_out(Connection& c);
  void after_write(Connection& c);
  void linger(Connection& c);
  void watch_writable(Connection& c, bool on);
  void sweep(Clock::time_point now);
  void kill(Connection& c);
  void reap();

  int listen_fd_;
  const ServerOptions& options_;
  ParseLimits limits_;
  const Router& router_;
  WorkerPool& workers_;
  UniqueFd epoll_;
  std::shared_ptr<Inbox> inbox_;
  std::vector<char> read_buffer_;
  std::unordered_map<std::uint64_t, std::unique_ptr<Connection>> connections_;
  std::vector<std::uint64_t> dying_;  // killed this round; closed by reap()
  std::uint64_t next_id_ = 2;         // 0 and 1 name the listening socket and the inbox in epoll
  bool accepting_ = true;
  bool stopping_ = false;
  Clock::time_point stop_deadline_{};
};

}  // namespace petstore::http
