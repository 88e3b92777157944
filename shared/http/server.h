#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <httplib.h>

#include "config/env.h"

namespace petstore::http {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8081;
  // cpp-httplib serves a keep-alive connection on one worker for its whole
  // life, so the pool must be at least as large as the number of concurrent
  // client connections the service should carry.
  size_t threads = 128;
  // Accepted connections waiting for a worker; when full, the accept loop
  // blocks and the kernel backlog absorbs the rest (bounded memory).
  size_t max_queued = 1024;
  size_t max_body_bytes = size_t{16} * 1024;
  size_t keep_alive_max_requests = 100'000;
  int keep_alive_timeout_s = 5;
  int read_timeout_s = 5;
  int write_timeout_s = 5;

  static ServerOptions from_env(const config::Env& env, int default_port);
};

// An httplib::Server tuned for an API service: TCP_NODELAY on (Nagle would add
// 40 ms to small keep-alive responses), a large worker pool with a bounded
// queue, long keep-alive, the body size limit, and a listen backlog of 4096
// instead of the 5 compiled into Debian's cpp-httplib (with 5, a burst of
// new connections overflows the SYN queue and waits for a 1 s retransmit).
class Server {
 public:
  explicit Server(ServerOptions options);

  [[nodiscard]] httplib::Server& raw() { return *server_; }
  // Binds host:port; throws if it cannot.
  void bind();
  // Serves until stop() is called from another thread.
  void serve();
  void stop() { server_->stop(); }

 private:
  ServerOptions options_;
  std::unique_ptr<httplib::Server> server_;
  std::shared_ptr<int> listen_fd_ = std::make_shared<int>(-1);
};

}  // namespace petstore::http
