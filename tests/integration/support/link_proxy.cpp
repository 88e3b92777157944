#include "support/link_proxy.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/stack.h"

namespace petstore::testing {

namespace {

using Clock = std::chrono::steady_clock;

sockaddr_in loopback(int port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

bool send_all(int fd, const std::string& data) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    const auto n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      return false;
    }
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

// One connection: a queue each way, a thread reading into it and one
// writing out of it.
class LinkProxy::Link {
 public:
  Link(LinkProxy& proxy, int client, int server) : proxy_(proxy), client_(client), server_(server) {
    up_.from = client_;
    up_.to = server_;
    down_.from = server_;
    down_.to = client_;
    threads_[0] = std::thread([this] { read_side(up_); });
    threads_[1] = std::thread([this] { write_side(up_); });
    threads_[2] = std::thread([this] { read_side(down_); });
    threads_[3] = std::thread([this] { write_side(down_); });
  }
  ~Link() {
    close();
    for (auto& t : threads_) {
      t.join();
    }
    ::close(client_);
    ::close(server_);
  }
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;

  // Ends the connection both ways: blocked reads and writes return.
  void close() {
    for (auto* p : {&up_, &down_}) {
      const std::lock_guard lock(p->mutex);
      p->closed = true;
      p->changed.notify_all();
    }
    ::shutdown(client_, SHUT_RDWR);
    ::shutdown(server_, SHUT_RDWR);
  }
  void wake() {
    for (auto* p : {&up_, &down_}) {
      const std::lock_guard lock(p->mutex);
      p->changed.notify_all();
    }
  }
  [[nodiscard]] bool done() const { return finished_ == 4; }

 private:
  struct Chunk {
    Clock::time_point due;
    std::string data;
  };
  struct Pipe {
    int from = -1;
    int to = -1;
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<Chunk> queue;
    bool eof = false;
    bool closed = false;
  };

  void read_side(Pipe& p) {
    std::array<char, 16384> buf{};
    for (;;) {
      const auto n = ::read(p.from, buf.data(), buf.size());
      const std::lock_guard lock(p.mutex);
      if (n <= 0) {
        p.eof = true;
        p.changed.notify_all();
        break;
      }
      p.queue.push_back({Clock::now() + std::chrono::milliseconds(proxy_.delay_ms_.load()),
                         std::string(buf.data(), static_cast<std::size_t>(n))});
      p.changed.notify_all();
    }
    ++finished_;
  }

  void write_side(Pipe& p) {
    for (;;) {
      std::unique_lock lock(p.mutex);
      if (p.closed) {
        break;
      }
      if (p.queue.empty()) {
        if (p.eof) {
          ::shutdown(p.to, SHUT_WR);  // the peer's end of stream, passed on
          break;
        }
        p.changed.wait(lock);
        continue;
      }
      if (proxy_.stalled_) {
        p.changed.wait_for(lock, std::chrono::milliseconds(50));
        continue;
      }
      if (const auto due = p.queue.front().due; Clock::now() < due) {
        p.changed.wait_until(lock, due);
        continue;
      }
      const std::string data = std::move(p.queue.front().data);
      p.queue.pop_front();
      lock.unlock();
      if (!send_all(p.to, data)) {
        close();
        break;
      }
    }
    ++finished_;
  }

  LinkProxy& proxy_;
  int client_;
  int server_;
  Pipe up_;
  Pipe down_;
  std::atomic<int> finished_{0};
  std::array<std::thread, 4> threads_;
};

LinkProxy::LinkProxy(int listen_port, int target_port) : target_port_(target_port) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  const auto a = loopback(listen_port);
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0 ||
      ::listen(listen_fd_, 128) != 0) {
    const std::string why = std::strerror(errno);
    if (listen_fd_ >= 0) {
      ::close(listen_fd_);
    }
    throw std::runtime_error("link proxy: cannot listen on port " + std::to_string(listen_port) + ": " + why);
  }
  acceptor_ = std::thread([this] { accept_loop(); });
}

LinkProxy::~LinkProxy() {
  stop_ = true;
  acceptor_.join();
  ::close(listen_fd_);
  const std::lock_guard lock(mutex_);
  links_.clear();
}

void LinkProxy::delay(std::chrono::milliseconds d) {
  delay_ms_ = d.count();
}

void LinkProxy::stall(bool on) {
  stalled_ = on;
  wake_all();
}

void LinkProxy::cut() {
  const std::lock_guard lock(mutex_);
  for (auto& l : links_) {
    l->close();
  }
}

void LinkProxy::wake_all() {
  const std::lock_guard lock(mutex_);
  for (auto& l : links_) {
    l->wake();
  }
}

void LinkProxy::accept_loop() {
  while (!stop_) {
    pollfd pfd{listen_fd_, POLLIN, 0};
    if (::poll(&pfd, 1, 100) <= 0) {
      continue;
    }
    const int client = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) {
      continue;
    }
    const int server = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const auto target = loopback(target_port_);
    if (server < 0 || ::connect(server, reinterpret_cast<const sockaddr*>(&target), sizeof target) != 0) {
      ::close(client);  // as the listener behind would have refused it
      if (server >= 0) {
        ::close(server);
      }
      continue;
    }
    const int one = 1;
    for (const int fd : {client, server}) {
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    const std::lock_guard lock(mutex_);
    links_.remove_if([](const auto& l) { return l->done(); });
    links_.push_back(std::make_unique<Link>(*this, client, server));
    ++opened_;
  }
}

ClusterLinks::ClusterLinks() {
  const auto advertised = split_list(Stack::get().cluster_link_brokers);
  const auto listeners = split_list(Stack::get().cluster_link_listeners);
  if (advertised.size() != listeners.size()) {
    throw std::runtime_error("the cluster's link brokers and their listeners do not pair up");
  }
  const auto port_of = [](const std::string& address) {
    return std::stoi(address.substr(address.rfind(':') + 1));
  };
  for (std::size_t i = 0; i < advertised.size(); ++i) {
    links_.push_back(std::make_unique<LinkProxy>(port_of(advertised[i]), port_of(listeners[i])));
  }
}

void ClusterLinks::delay(std::chrono::milliseconds d) {
  for (auto& l : links_) {
    l->delay(d);
  }
}

void ClusterLinks::stall(bool on) {
  for (auto& l : links_) {
    l->stall(on);
  }
}

void ClusterLinks::cut() {
  for (auto& l : links_) {
    l->cut();
  }
}

int ClusterLinks::connections() const {
  int n = 0;
  for (const auto& l : links_) {
    n += l->connections();
  }
  return n;
}

}  // namespace petstore::testing
