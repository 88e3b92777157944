#pragma once

#include <string>

namespace petstore::http {

// An owned file descriptor, closed on destruction.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd();
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  [[nodiscard]] int get() const noexcept { return fd_; }
  int release() noexcept;
  explicit operator bool() const noexcept { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// A non-blocking TCP socket listening on host:port with `backlog`; throws
// std::runtime_error when it cannot (port taken, bad address).
UniqueFd listen_tcp(const std::string& host, int port, int backlog);

// The peer of a connected socket as text ("127.0.0.1") and its port.
std::string peer_address(int fd, int& port);

}  // namespace petstore::http
