#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace petstore::testing {

struct RawResponse {
  int status = 0;  // 0: the connection ended (or the wait ran out) before a whole response
  std::string head;
  std::string body;
  [[nodiscard]] std::string header(const std::string& name) const;
};

// One client socket on 127.0.0.1:`port`, for sending bytes no HTTP client
// library would: every read waits at most `timeout`, so a server that hangs
// fails the test instead of stalling it.
class RawConnection {
 public:
  explicit RawConnection(int port, std::chrono::milliseconds timeout = std::chrono::seconds(5));
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  [[nodiscard]] bool connected() const { return connected_; }
  [[nodiscard]] int fd() const { return fd_; }

  // False if the peer stopped taking bytes (closed, or reset).
  bool send(const std::string& bytes) const;
  // The next response: head, then a Content-Length or chunked body (none
  // when `head_only`, as for HEAD).
  RawResponse next(bool head_only = false);
  // True when the server closes the connection within the timeout, with
  // nothing more to read; false if bytes arrive or the wait runs out.
  bool closed_by_server();
  // TCP segments with data this socket has received so far (Linux's
  // TCP_INFO), to see how a server's writes went out.
  [[nodiscard]] std::uint32_t data_segments_in() const;
  // Changes the wait of every later read.
  void set_timeout(std::chrono::milliseconds timeout) const;

 private:
  bool fill();

  int fd_;
  bool connected_ = false;
  std::string buffer_;
};

}  // namespace petstore::testing
