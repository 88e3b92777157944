#include "http/event_loop.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <spdlog/spdlog.h>

#include "error/codes.h"
#include "http/inbox.h"
#include "http/response.h"
#include "http/response_writer.h"
#include "http/server.h"

namespace petstore::http {

struct EventLoop::Connection {
  UniqueFd fd;
  std::uint64_t id = 0;
  std::string peer;
  int peer_port = -1;
  std::string in;
  std::string out;
  size_t out_sent = 0;
  size_t served = 0;
  Clock::time_point last_active;
  Clock::time_point request_started;  // when the request now in `in` began to arrive
  Clock::time_point linger_until;
  bool busy = false;            // a request of this connection is being answered
  bool closing = false;         // close once `out` is written
  bool lingering = false;       // write side shut; discarding input until the peer closes
  bool peer_closed = false;     // the peer sent FIN (or the socket failed)
  bool read_pending = false;    // stopped reading at the buffer cap; more may wait in the socket
  bool continue_sent = false;   // 100 Continue already sent for the current request
  bool watching_write = false;  // EPOLLOUT is registered
  bool dead = false;            // to be closed and forgotten by reap()
};

namespace {

constexpr std::uint64_t kListenTag = 0;
constexpr std::uint64_t kInboxTag = 1;
constexpr int kMaxEvents = 256;
constexpr size_t kReadChunk = size_t{16} * 1024;
constexpr int kAcceptsPerWake = 64;
constexpr auto kLinger = std::chrono::seconds(2);
constexpr auto kStopGrace = std::chrono::seconds(5);
// Stopping, a keep-alive connection idle this long is closed. Not at once: a
// client (the entry point) may be sending a request on it right now, and a
// POST lost that way cannot be retried. Proxies reuse the connection they
// used last, so one idle this long is unlikely to be picked; one that does
// get a request is answered with Connection: close.
constexpr auto kIdleCloseWhenStopping = std::chrono::seconds(1);
constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

void epoll_add(int epoll, int fd, std::uint32_t events, std::uint64_t tag) {
  epoll_event ev{};
  ev.events = events;
  ev.data.u64 = tag;
  if (epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &ev) != 0) {
    throw std::runtime_error(std::string("epoll_ctl: ") + std::strerror(errno));
  }
}

constexpr std::uint32_t kConnectionEvents = EPOLLIN | EPOLLRDHUP | EPOLLET;

}  // namespace

EventLoop::EventLoop(int listen_fd, const ServerOptions& options, const Router& router, WorkerPool& workers)
    : listen_fd_(listen_fd),
      options_(options),
      limits_{options.max_head_bytes, options.max_body_bytes},
      router_(router),
      workers_(workers),
      epoll_(::epoll_create1(EPOLL_CLOEXEC)),
      inbox_(std::make_shared<Inbox>()),
      read_buffer_(kReadChunk) {
  if (!epoll_) {
    throw std::runtime_error(std::string("epoll_create1: ") + std::strerror(errno));
  }
  // EPOLLEXCLUSIVE: a new connection wakes one loop, not all of them.
  epoll_add(epoll_.get(), listen_fd_, EPOLLIN | EPOLLEXCLUSIVE, kListenTag);
  epoll_add(epoll_.get(), inbox_->fd(), EPOLLIN, kInboxTag);
}

EventLoop::~EventLoop() {
  inbox_->close();
}

void EventLoop::stop() {
  inbox_->request_stop();
}

void EventLoop::run() {
  std::array<epoll_event, kMaxEvents> events{};
  auto next_sweep = Clock::now() + std::chrono::seconds(1);
  for (;;) {
    const int n = epoll_wait(epoll_.get(), events.data(), kMaxEvents, 1000);
    if (n < 0 && errno != EINTR) {
      spdlog::critical("http: epoll_wait: {}", std::strerror(errno));
      return;
    }
    for (int i = 0; i < n; ++i) {
      const auto tag = events[static_cast<size_t>(i)].data.u64;
      if (tag == kListenTag) {
        accept_all();
      } else if (tag == kInboxTag) {
        take_completions();
      } else if (const auto it = connections_.find(tag); it != connections_.end()) {
        on_ready(*it->second, events[static_cast<size_t>(i)].events);
      }
    }
    reap();
    const auto now = Clock::now();
    if (now >= next_sweep || stopping_) {
      sweep(now);
      reap();
      next_sweep = now + std::chrono::seconds(1);
    }
    if (stopping_ && (connections_.empty() || now >= stop_deadline_)) {
      connections_.clear();
      return;
    }
  }
}

void EventLoop::accept_all() {
  for (int i = 0; i < kAcceptsPerWake && accepting_; ++i) {
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE) {
        // Out of descriptors: stop accepting until a connection closes,
        // rather than spin on a listening socket that stays readable.
        spdlog::warn("http: cannot accept: {}; pausing until a connection closes", std::strerror(errno));
        epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, listen_fd_, nullptr);
        accepting_ = false;
      }
      if (errno == EINVAL) {
        // The server shut the listening socket down (stopping): stop watching it.
        epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, listen_fd_, nullptr);
        accepting_ = false;
      }
      return;  // EAGAIN (another loop took it), ECONNABORTED, ...
    }
    auto c = std::make_unique<Connection>();
    c->fd = UniqueFd(fd);
    c->id = next_id_++;
    c->peer = peer_address(fd, c->peer_port);
    c->last_active = Clock::now();
    // Responses are written whole, so Nagle could only delay them.
    const int yes = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
    epoll_add(epoll_.get(), fd, kConnectionEvents, c->id);
    connections_.emplace(c->id, std::move(c));
  }
}

void EventLoop::on_ready(Connection& c, std::uint32_t events) {
  if ((events & EPOLLOUT) != 0U) {
    write_out(c);
  }
  if ((events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0U) {
    read_from(c);
  }
}

void EventLoop::read_from(Connection& c) {
  // Buffer at most one largest request; the rest
  // waits in the kernel (TCP flow control) until this one is answered.
  const size_t cap = limits_.max_head_bytes + limits_.max_body_bytes + kReadChunk;
  auto& chunk = read_buffer_;  // one per loop: no per-read allocation or zeroing
  c.read_pending = false;
  for (;;) {
    if (!c.lingering && c.in.size() >= cap) {
      c.read_pending = true;
      break;
    }
    const auto n = ::read(c.fd.get(), chunk.data(), chunk.size());
    if (n > 0) {
      c.last_active = Clock::now();
      if (!c.lingering) {
        if (c.in.empty()) {
          c.request_started = c.last_active;
        }
        c.in.append(chunk.data(), static_cast<size_t>(n));
      }
      if (static_cast<size_t>(n) < chunk.size()) {
        break;  // drained: edge-triggered epoll reports the next arrival
      }
      continue;
    }
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
      c.peer_closed = true;
    }
    break;
  }
  if (c.lingering) {
    if (c.peer_closed) {
      kill(c);
    }
    return;
  }
  process(c);
  if (c.peer_closed && !c.busy && c.out_sent == c.out.size()) {
    kill(c);
  }
}

void EventLoop::process(Connection& c) {
  while (!c.busy && !c.closing && !c.dead && !c.in.empty()) {
    auto ex = std::make_shared<Exchange>();
    const auto parsed = parse_request(c.in, limits_, ex->req);
    switch (parsed.state) {
      case Parsed::State::Incomplete:
        if (parsed.expects_continue && !c.continue_sent) {
          c.continue_sent = true;
          c.out.append(kContinue);
          write_out(c);
        }
        return;
      case Parsed::State::Invalid:
        reject(c, parsed.status, parsed.message);
        return;
      case Parsed::State::Complete:
        // Pipelined bytes after this request move to the front; usually there are none.
        c.in.erase(0, parsed.consumed);
        c.request_started = Clock::now();
        start(c, ex, parsed);
        break;
    }
  }
}

void EventLoop::start(Connection& c, const ExchangePtr& ex, const Parsed& parsed) {
  c.busy = true;
  c.continue_sent = false;
  ++c.served;
  ex->req.remote_addr = c.peer;
  ex->req.remote_port = c.peer_port;
  const bool head = ex->req.method == "HEAD";
  const bool keep_alive =
      parsed.keep_alive && !c.peer_closed && !stopping_ && c.served < options_.keep_alive_max_requests;
  router_.dispatch(ex, workers_, [inbox = inbox_, id = c.id, ex, head, keep_alive] {
    inbox->post({id, serialize_response(ex->res, head, keep_alive), keep_alive});
  });
}

void EventLoop::reject(Connection& c, int status, const std::string& message) {
  httplib::Response res;
  const char* code = status == 413 ? codes::kPayloadTooLarge : codes::kBadRequest;
  send_error(res, ApiError(status, code, message));
  c.out.append(serialize_response(res, false, false));
  c.closing = true;
  c.in.clear();
  write_out(c);
}

void EventLoop::take_completions() {
  std::vector<Inbox::Item> items;
  if (inbox_->take(items) && !stopping_) {
    stopping_ = true;
    stop_deadline_ = Clock::now() + kStopGrace;
    if (accepting_) {
      epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, listen_fd_, nullptr);
      accepting_ = false;
    }
  }
  for (auto& item : items) {
    const auto it = connections_.find(item.connection);
    if (it == connections_.end()) {
      continue;  // closed while its request was being answered
    }
    auto& c = *it->second;
    c.busy = false;
    c.last_active = Clock::now();
    c.closing = c.closing || !item.keep_alive || stopping_;
    if (c.out.empty()) {
      c.out = std::move(item.bytes);
    } else {
      c.out.append(item.bytes);
    }
    write_out(c);
  }
}

void EventLoop::write_out(Connection& c) {
  while (c.out_sent < c.out.size() && !c.dead) {
    const auto n = ::send(c.fd.get(), c.out.data() + c.out_sent, c.out.size() - c.out_sent, MSG_NOSIGNAL);
    if (n >= 0) {
      c.out_sent += static_cast<size_t>(n);
      c.last_active = Clock::now();
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      watch_writable(c, true);
      return;
    } else if (errno != EINTR) {
      kill(c);  // the peer is gone; nothing more can be said to it
      return;
    }
  }
  after_write(c);
}

void EventLoop::after_write(Connection& c) {
  if (c.dead || c.out_sent < c.out.size()) {
    return;
  }
  c.out.clear();
  c.out_sent = 0;
  watch_writable(c, false);
  if (c.busy) {
    return;  // defensive: nothing is written while a response is being prepared
  }
  if (c.closing || c.peer_closed) {
    linger(c);
    return;
  }
  if (c.read_pending) {
    read_from(c);
  } else {
    process(c);
  }
}

void EventLoop::linger(Connection& c) {
  // Closing with unread input would make the kernel send RST, which can
  // destroy the response before the client reads it; shut the write side
  // and let the client close first (bounded by kLinger).
  if (c.lingering) {
    return;
  }
  if (c.peer_closed) {
    kill(c);
    return;
  }
  ::shutdown(c.fd.get(), SHUT_WR);
  c.lingering = true;
  c.linger_until = Clock::now() + kLinger;
  c.in.clear();
  read_from(c);
}

void EventLoop::watch_writable(Connection& c, bool on) {
  if (c.watching_write == on) {
    return;
  }
  epoll_event ev{};
  ev.events = kConnectionEvents | (on ? EPOLLOUT : 0U);
  ev.data.u64 = c.id;
  epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, c.fd.get(), &ev);
  c.watching_write = on;
}

void EventLoop::sweep(Clock::time_point now) {
  const auto idle = std::chrono::seconds(options_.keep_alive_timeout_s);
  const auto reading = std::chrono::seconds(options_.read_timeout_s);
  const auto writing = std::chrono::seconds(options_.write_timeout_s);
  for (auto& [id, c] : connections_) {
    bool expired = false;
    if (c->lingering) {
      expired = now >= c->linger_until;
    } else if (c->busy) {
      continue;  // the handler bounds its own time
    } else if (c->out_sent < c->out.size()) {
      expired = now - c->last_active > writing;
    } else if (!c->in.empty()) {
      // A request trickling in byte by byte still has to finish in time.
      expired = now - c->request_started > reading;
    } else {
      expired =
          now - c->last_active > (stopping_ ? std::min<Clock::duration>(idle, kIdleCloseWhenStopping) : idle);
    }
    if (expired) {
      kill(*c);
    }
  }
}

void EventLoop::kill(Connection& c) {
  if (!c.dead) {
    c.dead = true;
    dying_.push_back(c.id);
  }
}

void EventLoop::reap() {
  if (dying_.empty()) {
    return;
  }
  for (const auto id : dying_) {
    connections_.erase(id);  // closing the descriptor also takes it out of epoll
  }
  dying_.clear();
  if (!accepting_ && !stopping_) {
    epoll_add(epoll_.get(), listen_fd_, EPOLLIN | EPOLLEXCLUSIVE, kListenTag);
    accepting_ = true;
  }
}

}  // namespace petstore::http
