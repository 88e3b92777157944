#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "config/env.h"
#include "http/router.h"
#include "http/socket.h"
#include "http/worker_pool.h"

namespace petstore::http {

class EventLoop;

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8081;
  // Event loops (threads that do all socket I/O); one per core by default.
  size_t loops = 0;  // 0: std::thread::hardware_concurrency()
  // Workers for handlers that block (writes), and how many such requests
  // may wait for one before new ones get 503 overloaded.
  size_t threads = 128;
  size_t max_queued = 1024;
  size_t max_head_bytes = size_t{16} * 1024;
  size_t max_body_bytes = size_t{16} * 1024;
  size_t keep_alive_max_requests = 100'000;
  int keep_alive_timeout_s = 5;  // an idle connection is closed after this
  int read_timeout_s = 5;        // a request must arrive whole within this
  int write_timeout_s = 5;       // a response must leave within this

  static ServerOptions from_env(const config::Env& env, int default_port);
};

// The HTTP/1.1 server of every service: a few event loops (epoll) sharing
// one listening socket, with a worker pool for handlers that block. Replaces
// cpp-httplib's server, which gives each connection a thread and wakes two
// threads per request; the handlers keep cpp-httplib's Request and Response
// types, and the tests keep its client.
class Server {
 public:
  Server(ServerOptions options, const Router& router);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds host:port (backlog 4096); throws if it cannot.
  void bind();
  // Serves on this thread and loops-1 more until stop(); returns once every
  // loop has finished its responses in progress.
  void serve();
  // From any thread (a signal handler's thread, for example).
  void stop();

 private:
  ServerOptions options_;
  const Router& router_;
  UniqueFd listen_;
  std::unique_ptr<WorkerPool> workers_;
  std::vector<std::unique_ptr<EventLoop>> loops_;
};

}  // namespace petstore::http
