#include "http/server.h"

#include <sys/socket.h>

#include <thread>

#include "http/event_loop.h"

namespace petstore::http {
namespace {

// Debian's cpp-httplib compiled in a backlog of 5; a burst of new connections
// then overflowed the SYN queue and waited for a 1 s retransmit.
constexpr int kListenBacklog = 4096;

}  // namespace

ServerOptions ServerOptions::from_env(const config::Env& env, int default_port) {
  ServerOptions o;
  o.host = env.str("HTTP_HOST", o.host);
  o.port = static_cast<int>(env.integer("HTTP_PORT", default_port, 1, 65535));
  o.loops = static_cast<size_t>(env.integer("HTTP_LOOPS", 0, 0, 256));
  o.threads = static_cast<size_t>(env.integer("HTTP_THREADS", static_cast<std::int64_t>(o.threads), 1, 4096));
  o.max_queued = static_cast<size_t>(
      env.integer("HTTP_MAX_QUEUED", static_cast<std::int64_t>(o.max_queued), 1, 1'000'000));
  o.max_body_bytes =
      static_cast<size_t>(env.integer("HTTP_MAX_BODY_BYTES", static_cast<std::int64_t>(o.max_body_bytes), 256,
                                      std::int64_t{16} * 1024 * 1024));
  o.keep_alive_timeout_s =
      static_cast<int>(env.integer("HTTP_KEEPALIVE_TIMEOUT_S", o.keep_alive_timeout_s, 1, 3600));
  o.read_timeout_s = static_cast<int>(env.integer("HTTP_READ_TIMEOUT_S", o.read_timeout_s, 1, 3600));
  if (o.loops == 0) {
    o.loops = std::max(1U, std::thread::hardware_concurrency());
  }
  return o;
}

Server::Server(ServerOptions options, const Router& router)
    : options_(std::move(options)),
      router_(router),
      workers_(std::make_unique<WorkerPool>(options_.threads, options_.max_queued)) {}

Server::~Server() {
  // The loops go first; then the workers finish what they hold, whose
  // responses land in inboxes nobody reads any more.
  loops_.clear();
  workers_.reset();
}

void Server::bind() {
  listen_ = listen_tcp(options_.host, options_.port, kListenBacklog);
  const size_t count = std::max<size_t>(1, options_.loops);
  for (size_t i = 0; i < count; ++i) {
    loops_.push_back(std::make_unique<EventLoop>(listen_.get(), options_, router_, *workers_));
  }
}

void Server::serve() {
  std::vector<std::thread> others;
  for (size_t i = 1; i < loops_.size(); ++i) {
    others.emplace_back([loop = loops_[i].get()] { loop->run(); });
  }
  if (!loops_.empty()) {
    loops_.front()->run();
  }
  for (auto& t : others) {
    t.join();
  }
}

void Server::stop() {
  // Stop listening at once, so the entry point's next connect is refused and
  // goes to another replica instead of waiting in a backlog nobody accepts
  // from; the descriptor itself stays open until the loops are gone.
  if (listen_) {
    ::shutdown(listen_.get(), SHUT_RDWR);
  }
  for (const auto& loop : loops_) {
    loop->stop();
  }
}

}  // namespace petstore::http
