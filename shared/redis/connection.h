#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <hiredis/hiredis.h>

namespace petstore::redis {

// Redis could not be reached or did not answer in time. The HTTP layer turns
// this into 503 store_unavailable; the connection that threw is discarded.
class Unavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Redis answered with an error reply (-ERR ...) the caller did not expect.
class CommandError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ReplyDeleter {
  void operator()(redisReply* r) const noexcept { freeReplyObject(r); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

struct ContextDeleter {
  void operator()(redisContext* c) const noexcept { redisFree(c); }
};

struct Endpoint {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::chrono::milliseconds connect_timeout{500};
  // Bounds every command, so a slow Redis turns into an error, not a stall.
  std::chrono::milliseconds command_timeout{1000};
  // When set, connect over this Unix socket instead of TCP (a Redis on the
  // same host): fewer kernel steps per command than loopback TCP.
  std::string unix_socket;
};

using Args = std::vector<std::string_view>;

// One hiredis connection, owned. Not thread-safe: a pool hands it to one
// thread at a time.
class Connection {
 public:
  explicit Connection(const Endpoint& endpoint);

  // Sends one command and waits for its reply. Error replies come back as
  // replies (type REDIS_REPLY_ERROR); only I/O failures throw.
  Reply command(const Args& args);

  // Pipelining: queue commands, then collect their replies in order.
  void append(const Args& args);
  Reply next_reply();

  [[nodiscard]] bool broken() const noexcept { return broken_; }

 private:
  [[noreturn]] void fail(const char* what);

  std::unique_ptr<redisContext, ContextDeleter> ctx_;
  bool broken_ = false;
};

// Reply helpers: small, total functions so callers never touch raw pointers.
[[nodiscard]] bool is_error(const redisReply& r);
[[nodiscard]] std::string_view as_string(const redisReply& r);
[[nodiscard]] std::int64_t as_integer(const redisReply& r);
// Throws CommandError when the reply is an error reply, Unavailable when it
// says Redis cannot serve yet (LOADING, BUSY, MASTERDOWN, TRYAGAIN).
const redisReply& expect_ok(const Reply& reply);

}  // namespace petstore::redis
