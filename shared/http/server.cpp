#include "http/server.h"

#include <sys/socket.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace petstore::http {
namespace {

constexpr int kListenBacklog = 4096;

// httplib's own ThreadPool queues without limit; this one blocks the accept
// loop instead, so a burst cannot grow memory without bound.
class BoundedThreadPool final : public httplib::TaskQueue {
 public:
  BoundedThreadPool(size_t threads, size_t max_queued) : max_queued_(max_queued) {
    workers_.reserve(threads);
    for (size_t i = 0; i < threads; ++i) {
      workers_.emplace_back([this] { work(); });
    }
  }
  BoundedThreadPool(const BoundedThreadPool&) = delete;
  BoundedThreadPool& operator=(const BoundedThreadPool&) = delete;
  ~BoundedThreadPool() override = default;

  void enqueue(std::function<void()> fn) override {
    std::unique_lock lock(mutex_);
    has_room_.wait(lock, [this] { return jobs_.size() < max_queued_ || stopping_; });
    jobs_.push_back(std::move(fn));
    lock.unlock();
    has_job_.notify_one();
  }

  void shutdown() override {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    has_job_.notify_all();
    has_room_.notify_all();
    for (auto& t : workers_) {
      t.join();
    }
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock lock(mutex_);
        has_job_.wait(lock, [this] { return !jobs_.empty() || stopping_; });
        if (jobs_.empty()) {
          return;
        }
        fn = std::move(jobs_.front());
        jobs_.pop_front();
      }
      has_room_.notify_one();
      fn();
    }
  }

  size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable has_job_;
  std::condition_variable has_room_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace

ServerOptions ServerOptions::from_env(const config::Env& env, int default_port) {
  ServerOptions o;
  o.host = env.str("HTTP_HOST", o.host);
  o.port = static_cast<int>(env.integer("HTTP_PORT", default_port, 1, 65535));
  o.threads = static_cast<size_t>(env.integer("HTTP_THREADS", static_cast<std::int64_t>(o.threads), 1, 4096));
  o.max_queued = static_cast<size_t>(
      env.integer("HTTP_MAX_QUEUED", static_cast<std::int64_t>(o.max_queued), 1, 1'000'000));
  o.max_body_bytes =
      static_cast<size_t>(env.integer("HTTP_MAX_BODY_BYTES", static_cast<std::int64_t>(o.max_body_bytes), 256,
                                      std::int64_t{16} * 1024 * 1024));
  o.keep_alive_timeout_s =
      static_cast<int>(env.integer("HTTP_KEEPALIVE_TIMEOUT_S", o.keep_alive_timeout_s, 1, 3600));
  return o;
}

Server::Server(ServerOptions options)
    : options_(std::move(options)), server_(std::make_unique<httplib::Server>()) {
  auto* server = server_.get();
  const auto& o = options_;
  server->new_task_queue = [threads = o.threads, queued = o.max_queued]() -> httplib::TaskQueue* {
    // httplib takes ownership of the queue it asks for and deletes it.
    return std::make_unique<BoundedThreadPool>(threads, queued).release();
  };
  server->set_tcp_nodelay(true);
  server->set_keep_alive_max_count(o.keep_alive_max_requests);
  server->set_keep_alive_timeout(o.keep_alive_timeout_s);
  server->set_read_timeout(o.read_timeout_s, 0);
  server->set_write_timeout(o.write_timeout_s, 0);
  server->set_payload_max_length(o.max_body_bytes);
  // Replaces httplib's default options (SO_REUSEADDR), and remembers the
  // listening socket so bind() can widen its backlog.
  server->set_socket_options([fd = listen_fd_](socket_t sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    *fd = sock;
  });
}

void Server::bind() {
  if (!server_->bind_to_port(options_.host, options_.port)) {
    throw std::runtime_error("cannot listen on " + options_.host + ":" + std::to_string(options_.port));
  }
  // Listening again on a listening socket only changes its backlog.
  if (*listen_fd_ >= 0 && ::listen(*listen_fd_, kListenBacklog) != 0) {
    throw std::runtime_error("cannot widen the listen backlog");
  }
}

void Server::serve() {
  server_->listen_after_bind();
}

}  // namespace petstore::http
