#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include <httplib.h>

#include "http/api_error.h"
#include "http/request_head.h"

namespace petstore::http {

// One client connection as cpp-httplib reads and writes it, in place of
// its own per-request stream (http::Server's connection loop):
//   - bytes read past the end of a request stay here for the next one, so
//     pipelined requests are answered in order (cpp-httplib's stream lived
//     for one request, and what it had read of the next ones was lost);
//   - a request's head must arrive within a deadline, however slowly its
//     bytes trickle in (each read's own timeout alone let a client that
//     sends a byte at a time hold a worker indefinitely);
//   - waiting for the next request on an idle connection is one poll, not
//     a wake-up every few milliseconds;
//   - the request's head is read and checked here (http/request_head.h), and
//     cpp-httplib reads the canonical form of it, then the body as sent.
class ConnectionStream final : public httplib::Stream {
 public:
  struct Timeouts {
    std::chrono::milliseconds read{5000};   // each read
    std::chrono::milliseconds write{5000};  // each write
    std::chrono::milliseconds head{5000};   // a request's line and headers, from its first byte
  };
  ConnectionStream(int fd, Timeouts timeouts) : fd_(fd), timeouts_(timeouts) {}

  // Waits, up to `idle`, until a request begins (a byte of it is here);
  // false when none did, or the peer closed.
  bool next_request(std::chrono::milliseconds idle);
  // What take_head() found.
  struct HeadRead {
    bool ready = false;               // the head is whole: head() holds it
    std::optional<ApiError> refusal;  // else the answer to send before closing (none: the peer left)
  };
  // Reads until the request's head is whole, within the head's deadline and
  // the buffer (16 KiB), and scans it; cpp-httplib then reads its canonical
  // form in its place.
  HeadRead take_head();
  // The head take_head() read for the current request, as the client sent it.
  [[nodiscard]] const RequestHead* head() const { return head_ ? &*head_ : nullptr; }
  // The request's head has been read (its routing began).
  void head_complete() { head_done_ = true; }
  // A read of the head failed because its deadline passed.
  [[nodiscard]] bool head_timed_out() const { return head_timed_out_; }
  // Something of an answer to the current request was written.
  [[nodiscard]] bool answered() const { return answered_; }
  // Bytes already read from the socket and not yet consumed.
  [[nodiscard]] std::size_t buffered() const { return canonical_.size() - canonical_at_ + end_ - begin_; }

  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return fd_; }

 private:
  // poll() for input, up to `timeout`: 1 ready, 0 not, -1 error.
  int wait_readable(std::chrono::milliseconds timeout) const;
  // One recv() into the empty buffer; false at the end of the connection or on an error.
  bool fill();
  // How long a read may wait now: the read timeout, or less when the
  // head's deadline comes first (0: it has passed).
  [[nodiscard]] std::chrono::milliseconds read_wait() const;

  int fd_;
  Timeouts timeouts_;
  std::array<char, 16384> buffer_{};
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool head_done_ = true;
  bool head_timed_out_ = false;
  bool answered_ = false;
  std::chrono::steady_clock::time_point head_deadline_{};
  std::optional<RequestHead> head_;
  std::string canonical_;  // the head as cpp-httplib reads it, before the buffer
  std::size_t canonical_at_ = 0;
};

}  // namespace petstore::http
