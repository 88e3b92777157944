#include "support/raw_http.h"

#include <arpa/inet.h>
// Linux's own header rather than glibc's <netinet/tcp.h>, whose tcp_info
// stops before tcpi_data_segs_in.
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>

namespace petstore::testing {

std::string RawResponse::header(const std::string& name) const {
  std::string lower_head;
  for (const char c : head) {
    lower_head += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  std::string key = "\r\n";
  for (const char c : name) {
    key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  key += ":";
  const auto at = lower_head.find(key);
  if (at == std::string::npos) {
    return "";
  }
  auto start = at + key.size();
  while (start < head.size() && head[start] == ' ') {
    ++start;
  }
  return head.substr(start, head.find("\r\n", start) - start);
}

void RawConnection::set_timeout(std::chrono::milliseconds timeout) const {
  timeval tv{static_cast<time_t>(timeout.count() / 1000),
             static_cast<suseconds_t>((timeout.count() % 1000) * 1000)};
  setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

RawConnection::RawConnection(int port, std::chrono::milliseconds timeout)
    : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
  set_timeout(timeout);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
}

RawConnection::~RawConnection() {
  ::close(fd_);
}

bool RawConnection::send(const std::string& bytes) const {
  size_t sent = 0;
  while (sent < bytes.size()) {
    const auto n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      return false;
    }
    sent += static_cast<size_t>(n);
  }
  return true;
}

bool RawConnection::fill() {
  char chunk[16384];
  const auto n = ::recv(fd_, chunk, sizeof(chunk), 0);
  if (n <= 0) {
    return false;
  }
  buffer_.append(chunk, static_cast<size_t>(n));
  return true;
}

RawResponse RawConnection::next(bool head_only) {
  RawResponse r;
  size_t end = 0;
  while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
    if (!fill()) {
      return r;
    }
  }
  r.head = buffer_.substr(0, end + 4);
  buffer_.erase(0, end + 4);
  if (r.head.size() < 12 || r.head.compare(0, 5, "HTTP/") != 0) {
    return r;
  }
  const int status = std::stoi(r.head.substr(9, 3));
  if (!head_only && status != 100) {
    const auto length_text = r.header("Content-Length");
    if (!length_text.empty()) {
      const size_t length = std::stoul(length_text);
      while (buffer_.size() < length) {
        if (!fill()) {
          return r;
        }
      }
      r.body = buffer_.substr(0, length);
      buffer_.erase(0, length);
    } else if (r.header("Transfer-Encoding") == "chunked") {
      for (;;) {
        size_t line_end = 0;
        while ((line_end = buffer_.find("\r\n")) == std::string::npos) {
          if (!fill()) {
            return r;
          }
        }
        const size_t size = std::stoul(buffer_.substr(0, line_end), nullptr, 16);
        while (buffer_.size() < line_end + 2 + size + 2) {
          if (!fill()) {
            return r;
          }
        }
        r.body += buffer_.substr(line_end + 2, size);
        buffer_.erase(0, line_end + 2 + size + 2);
        if (size == 0) {
          break;
        }
      }
    }
  }
  r.status = status;
  return r;
}

bool RawConnection::closed_by_server() {
  while (buffer_.empty()) {
    char c = 0;
    const auto n = ::recv(fd_, &c, 1, 0);
    if (n == 0) {
      return true;
    }
    if (n < 0) {
      return errno == ECONNRESET;
    }
    buffer_.push_back(c);
  }
  return false;
}

std::uint32_t RawConnection::data_segments_in() const {
  tcp_info info{};
  socklen_t len = sizeof(info);
  if (getsockopt(fd_, IPPROTO_TCP, TCP_INFO, &info, &len) != 0) {
    return 0;
  }
  return info.tcpi_data_segs_in;
}

}  // namespace petstore::testing
