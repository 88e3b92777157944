#include "redis/connection.h"

#include <sys/time.h>
#include <charconv>

namespace petstore::redis {
namespace {

timeval to_timeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
  return tv;
}

struct ArgvView {
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  explicit ArgvView(const Args& args) {
    argv.reserve(args.size());
    lens.reserve(args.size());
    for (const auto& a : args) {
      argv.push_back(a.data());
      lens.push_back(a.size());
    }
  }
};

}  // namespace

Connection::Connection(const Endpoint& endpoint) {
  const auto timeout = to_timeval(endpoint.connect_timeout);
  ctx_.reset(endpoint.unix_socket.empty()
                 ? redisConnectWithTimeout(endpoint.host.c_str(), endpoint.port, timeout)
                 : redisConnectUnixWithTimeout(endpoint.unix_socket.c_str(), timeout));
  if (!ctx_) {
    throw Unavailable("redis: out of memory creating a connection");
  }
  if (ctx_->err != 0) {
    const auto where = endpoint.unix_socket.empty() ? endpoint.host + ":" + std::to_string(endpoint.port)
                                                    : endpoint.unix_socket;
    throw Unavailable("redis " + where + ": " + ctx_->errstr);
  }
  if (redisSetTimeout(ctx_.get(), to_timeval(endpoint.command_timeout)) != REDIS_OK) {
    throw Unavailable("redis: cannot set the command timeout");
  }
  if (endpoint.unix_socket.empty()) {
    redisEnableKeepAlive(ctx_.get());
  }
}

void Connection::fail(const char* what) {
  broken_ = true;
  throw Unavailable(std::string("redis ") + what + ": " + ctx_->errstr);
}

Reply Connection::command(const Args& args) {
  append(args);
  return next_reply();
}

void Connection::append(const Args& args) {
  ArgvView view(args);
  if (redisAppendCommandArgv(ctx_.get(), static_cast<int>(args.size()), view.argv.data(), view.lens.data()) !=
      REDIS_OK) {
    fail("append");
  }
}

Reply Connection::next_reply() {
  void* raw = nullptr;
  if (redisGetReply(ctx_.get(), &raw) != REDIS_OK || raw == nullptr) {
    fail("read");
  }
  return Reply(static_cast<redisReply*>(raw));
}

bool is_error(const redisReply& r) {
  return r.type == REDIS_REPLY_ERROR;
}

std::string_view as_string(const redisReply& r) {
  if (r.type == REDIS_REPLY_STRING || r.type == REDIS_REPLY_STATUS || r.type == REDIS_REPLY_ERROR) {
    return {r.str, r.len};
  }
  return {};
}

std::int64_t as_integer(const redisReply& r) {
  if (r.type == REDIS_REPLY_INTEGER) {
    return r.integer;
  }
  if (r.type == REDIS_REPLY_STRING) {
    std::int64_t v = 0;
    std::from_chars(r.str, r.str + r.len, v);
    return v;
  }
  return 0;
}

const redisReply& expect_ok(const Reply& reply) {
  if (is_error(*reply)) {
    const auto text = as_string(*reply);
    // Redis is there but cannot serve yet (loading its data after a restart,
    // busy with a script): an outage to wait out, not a bug.
    for (const std::string_view transient : {"LOADING", "BUSY", "MASTERDOWN", "TRYAGAIN"}) {
      if (text.starts_with(transient)) {
        throw Unavailable(std::string(text));
      }
    }
    throw CommandError(std::string(text));
  }
  return *reply;
}

}  // namespace petstore::redis
