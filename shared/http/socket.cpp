#include "http/socket.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace petstore::http {

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) {
      ::close(fd_);
    }
    fd_ = other.release();
  }
  return *this;
}

int UniqueFd::release() noexcept {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

namespace {

struct AddrInfoDeleter {
  void operator()(addrinfo* a) const noexcept { freeaddrinfo(a); }
};

}  // namespace

UniqueFd listen_tcp(const std::string& host, int port, int backlog) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const auto service = std::to_string(port);
  if (const int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0) {
    throw std::runtime_error("cannot resolve " + host + ": " + gai_strerror(rc));
  }
  const std::unique_ptr<addrinfo, AddrInfoDeleter> addresses(found);
  std::string last_error = "no address";
  for (const addrinfo* a = addresses.get(); a != nullptr; a = a->ai_next) {
    UniqueFd fd(::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol));
    if (!fd) {
      last_error = std::strerror(errno);
      continue;
    }
    // Lets a restarted replica bind while its old connections sit in
    // TIME_WAIT; unlike SO_REUSEPORT it never lets two live servers share a port.
    const int yes = 1;
    setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    if (::bind(fd.get(), a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd.get(), backlog) == 0) {
      return fd;
    }
    last_error = std::strerror(errno);
  }
  throw std::runtime_error("cannot listen on " + host + ":" + service + ": " + last_error);
}

std::string peer_address(int fd, int& port) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  port = -1;
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    return {};
  }
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (addr.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &in->sin_addr, text.data(), text.size());
    port = ntohs(in->sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&addr);
    inet_ntop(AF_INET6, &in6->sin6_addr, text.data(), text.size());
    port = ntohs(in6->sin6_port);
  }
  return text.data();
}

}  // namespace petstore::http
