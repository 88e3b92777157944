#include "http/connection_stream.h"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "error/codes.h"

namespace petstore::http {
namespace {

int wait_for(int fd, short events, std::chrono::milliseconds timeout) {
  pollfd p{fd, events, 0};
  for (;;) {
    const int n = ::poll(&p, 1, static_cast<int>(timeout.count()));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    return n < 0 ? -1 : n;
  }
}

// The numeric host and port of the address `name` (getpeername or
// getsockname) gives for `fd`, as cpp-httplib spells them (getnameinfo,
// NI_NUMERICHOST).
void address_of(int fd, int (*name)(int, sockaddr*, socklen_t*), std::string& ip, int& port) {
  std::array<char, NI_MAXHOST> host{};
  ip.clear();
  port = 0;  // a Unix socket: http::Server names its peers
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  auto* sa = reinterpret_cast<sockaddr*>(&addr);  // NOLINT(*-reinterpret-cast)
  if (name(fd, sa, &len) != 0 || (addr.ss_family != AF_INET && addr.ss_family != AF_INET6)) {
    return;
  }
  if (::getnameinfo(sa, len, host.data(), host.size(), nullptr, 0, NI_NUMERICHOST) == 0) {
    ip = host.data();
  }
  if (addr.ss_family == AF_INET) {
    sockaddr_in in{};
    std::memcpy(&in, &addr, sizeof(in));
    port = ntohs(in.sin_port);
  } else {
    sockaddr_in6 in6{};
    std::memcpy(&in6, &addr, sizeof(in6));
    port = ntohs(in6.sin6_port);
  }
}

}  // namespace

bool ConnectionStream::next_request(std::chrono::milliseconds idle) {
  head_done_ = false;
  head_timed_out_ = false;
  answered_ = false;
  head_.reset();
  canonical_.clear();
  canonical_at_ = 0;
  if (begin_ == end_ && (wait_readable(idle) <= 0 || !fill())) {
    return false;
  }
  head_deadline_ = std::chrono::steady_clock::now() + timeouts_.head;
  return true;
}

ConnectionStream::HeadRead ConnectionStream::take_head() {
  // The head is scanned from the buffer's start, so it must fit there.
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  for (bool fresh_line = true;;) {
    if (fresh_line) {
      auto scan = scan_request_head({buffer_.data(), end_});
      switch (scan.outcome) {
        case HeadScan::Outcome::Whole:
          begin_ = scan.consumed;
          canonical_ = canonical_head(scan.head);
          head_ = std::move(scan.head);
          return {true, std::nullopt};
        case HeadScan::Outcome::Malformed:
          return {false, ApiError(400, codes::kBadRequest, scan.why)};
        case HeadScan::Outcome::VersionNotSupported:
          return {false, ApiError(505, codes::kBadRequest, scan.why)};
        case HeadScan::Outcome::Incomplete:
          break;
      }
    }
    if (end_ == buffer_.size()) {
      return {false,
              ApiError(431, codes::kBadRequest,
                       "the request line and headers exceed " + std::to_string(buffer_.size()) + " bytes")};
    }
    const auto wait = read_wait();
    const int ready = wait.count() > 0 ? wait_readable(wait) : 0;
    if (ready == 0) {
      head_timed_out_ = true;
      return {false, ApiError(408, codes::kBadRequest, "the request's head did not arrive in time")};
    }
    ssize_t n = -1;
    if (ready > 0) {
      do {
        n = ::recv(fd_, buffer_.data() + end_, buffer_.size() - end_, 0);
      } while (n < 0 && errno == EINTR);
    }
    if (n <= 0) {
      return {};  // the peer closed, or the connection failed
    }
    // Scanned again only when a line has ended.
    fresh_line = std::memchr(buffer_.data() + end_, '\n', static_cast<size_t>(n)) != nullptr;
    end_ += static_cast<size_t>(n);
  }
}

int ConnectionStream::wait_readable(std::chrono::milliseconds timeout) const {
  return wait_for(fd_, POLLIN, timeout);
}

bool ConnectionStream::fill() {
  begin_ = 0;
  end_ = 0;
  for (;;) {
    const auto n = ::recv(fd_, buffer_.data(), buffer_.size(), 0);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    end_ = static_cast<std::size_t>(n);
    return true;
  }
}

std::chrono::milliseconds ConnectionStream::read_wait() const {
  if (head_done_) {
    return timeouts_.read;
  }
  const auto left =
      std::chrono::ceil<std::chrono::milliseconds>(head_deadline_ - std::chrono::steady_clock::now());
  return std::clamp(left, std::chrono::milliseconds(0), timeouts_.read);
}

bool ConnectionStream::is_readable() const {
  return canonical_at_ < canonical_.size() || begin_ != end_ || wait_readable(read_wait()) > 0;
}

bool ConnectionStream::is_writable() const {
  return wait_for(fd_, POLLOUT, timeouts_.write) > 0;
}

ssize_t ConnectionStream::read(char* ptr, size_t size) {
  if (canonical_at_ < canonical_.size()) {
    const auto n = std::min(size, canonical_.size() - canonical_at_);
    std::memcpy(ptr, canonical_.data() + canonical_at_, n);
    canonical_at_ += n;
    return static_cast<ssize_t>(n);
  }
  if (begin_ == end_) {
    const auto wait = read_wait();
    const int ready = wait.count() > 0 ? wait_readable(wait) : 0;
    if (ready <= 0) {
      // The head's deadline, not the read timeout, bounded this wait.
      head_timed_out_ = ready == 0 && !head_done_ && wait < timeouts_.read;
      return -1;
    }
    if (!fill()) {
      return 0;
    }
  }
  const auto n = std::min(size, end_ - begin_);
  std::memcpy(ptr, buffer_.data() + begin_, n);
  begin_ += n;
  return static_cast<ssize_t>(n);
}

ssize_t ConnectionStream::write(const char* ptr, size_t size) {
  answered_ = true;
  if (!is_writable()) {
    return -1;
  }
  for (;;) {
    const auto n = ::send(fd_, ptr, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    return n;
  }
}

void ConnectionStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  address_of(fd_, ::getpeername, ip, port);
}

void ConnectionStream::get_local_ip_and_port(std::string& ip, int& port) const {
  address_of(fd_, ::getsockname, ip, port);
}

}  // namespace petstore::http
