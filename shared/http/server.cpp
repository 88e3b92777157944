#include "http/server.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <stdexcept>
#include <thread>

#include "error/codes.h"
#include "http/chunked.h"
#include "http/request.h"
#include "http/request_log.h"
#include "http/request_metrics.h"
#include "http/response.h"
#include "http/response_cork.h"
#include "http/task_queue.h"
#include "log/log.h"
#include "net/own_sockets.h"

namespace petstore::http {
namespace {

// cpp-httplib hands our handlers `const Request&`, but the object is a
// non-const local of Server::process_request (cpp-httplib 0.11.4), so
// changing it is defined behaviour. We change it for three reasons, each
// said where it is done: the path its regex table sees, the body we read
// ourselves, and the Connection header that makes it answer "close".
httplib::Request& mutable_request(const httplib::Request& req) {
  return const_cast<httplib::Request&>(req);  // NOLINT(cppcoreguidelines-pro-type-const-cast)
}

// What the pre-routing step found, for the handler that runs next on the
// same thread for the same request (process_request is synchronous).
struct Pending {
  bool active = false;
  std::string path;
  Match match;
  Body body = Body::None;
};
thread_local Pending tl_pending;

// When the request on this thread began and which route serves it, for
// its metrics once its response is written (the logger).
struct Seen {
  std::chrono::steady_clock::rep start = 0;  // ticks (a time_point's constructor is not noexcept)
  const std::string* route = nullptr;
  bool counted = false;  // its head passed before_routing
};
thread_local Seen tl_seen;

// Makes cpp-httplib send "Connection: close": its write_response_core reads
// the request's Connection header. The client (nginx, curl) then ends the
// connection, which frees this worker.
void announce_close(const httplib::Request& req) {
  auto& r = mutable_request(req);
  r.headers.erase("Connection");
  r.set_header("Connection", "close");
}

// Refuses the request and ends the connection after the response, whatever
// the client does: the request's declared body was not read, so nothing
// after it on the connection can be framed. cpp-httplib 0.11 decides to keep
// a connection before routing, and ends it early only when writing fails;
// so the body goes out through a content provider that writes all of it and
// then reports failure, and the connection closes. (During a stop its
// connections end after the current response anyway, and its writer skips
// providers then, so the body stays a plain one.) Whatever still arrives on
// the connection is refused unread (Connection::poisoned).
void refuse_and_close(const httplib::Request& req, httplib::Response& res, const ApiError& error,
                      bool stopping) {
  send_error(res, error);
  announce_close(req);
  if (auto* c = current_connection()) {
    c->poisoned = true;
  }
  if (stopping || req.method == "HEAD" || res.body.empty()) {
    return;
  }
  auto body = std::make_shared<std::string>(std::move(res.body));
  res.body.clear();
  const auto type = res.get_header_value("Content-Type");
  res.headers.erase("Content-Type");
  res.set_content_provider(body->size(), type, [body](size_t offset, size_t length, httplib::DataSink& sink) {
    sink.write(body->data() + offset, length);
    return false;
  });
}

// Puts back what cpp-httplib's parser changed of the head the client sent
// (http/request_head.h): the method, when it is one the parser does not
// know, and every header field as sent, an empty one included.
void restore_head(httplib::Request& req, const RequestHead& head) {
  req.method = head.method;
  for (const auto& field : head.fields) {
    req.headers.erase(field.name);
  }
  for (const auto& field : head.fields) {
    req.headers.emplace(field.name, field.value);
  }
}

// cpp-httplib compresses an answer when Accept-Encoding merely holds "br"
// or "gzip" as text, "gzip;q=0" too (its encoding_type): the header it reads
// is made to name the one coding chosen by the field's rules, or removed.
void choose_coding(httplib::Request& req) {
  if (!req.has_header("Accept-Encoding")) {
    return;
  }
  const std::string coding(response_coding(field_list(req, "Accept-Encoding"), {"br", "gzip"}));
  req.headers.erase("Accept-Encoding");
  if (!coding.empty()) {
    req.headers.emplace("Accept-Encoding", coding);
  }
}

// Counts a request as being handled for as long as it lives (Server::wait_handled).
class Handling {
 public:
  explicit Handling(std::atomic<int>& count) : count_(count) {
    ++count_;
    RequestMetrics::get().in_flight().add(1);
  }
  ~Handling() {
    --count_;
    RequestMetrics::get().in_flight().add(-1);
  }
  Handling(const Handling&) = delete;
  Handling& operator=(const Handling&) = delete;

 private:
  std::atomic<int>& count_;
};

// Names the request on its response (request_log::stamp) as the scope
// ends, after whatever else wrote the response's headers.
class StampOnExit {
 public:
  explicit StampOnExit(httplib::Response& res) : res_(&res) {}
  ~StampOnExit() { request_log::stamp(*res_); }
  StampOnExit(const StampOnExit&) = delete;
  StampOnExit& operator=(const StampOnExit&) = delete;

 private:
  httplib::Response* res_;
};

// Whether the response is already ours (an Error body, or one moved into a provider).
bool has_content(const httplib::Response& res) {
  return !res.body.empty() || res.content_length_ > 0;
}

bool routable_method(const std::string& m) {
  return m == "GET" || m == "HEAD" || m == "POST" || m == "PUT" || m == "PATCH" || m == "DELETE" ||
         m == "OPTIONS";
}

// Whether a server answers on the Unix socket at `path` (a connect succeeds).
bool unix_socket_answers(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof(addr.sun_path)) {
    return false;
  }
  std::memcpy(static_cast<char*>(addr.sun_path), path.data(), path.size());
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return false;
  }
  const bool answers = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr),  // NOLINT(*-reinterpret-cast)
                                 sizeof(addr)) == 0;
  ::close(fd);
  return answers;
}

// The Error for a status cpp-httplib produced itself, before our code ran.
ApiError library_error(int status) {
  switch (status) {
    case 413:
      return {413, codes::kPayloadTooLarge, "the request body exceeds the size limit"};
    case 414:
      return {414, codes::kBadRequest, "the request line is too long"};
    case 416:
      return {416, codes::kBadRequest, "the Range header is malformed (this API serves no ranges)"};
    case 500:
      return {500, codes::kInternalError, "internal error"};
    default:
      return {status, codes::kBadRequest, "the request line or a header is malformed"};
  }
}

}  // namespace

Server::Server(ServerOptions options, const Router& router) : options_(std::move(options)), router_(router) {
  server_.new_task_queue = [this] {
    // cpp-httplib's listen loop takes ownership (and deletes it when it returns).
    // NOLINTNEXTLINE(cppcoreguidelines-owning-memory)
    auto* queue = new TaskQueue(options_.threads, options_.max_queued);
    queue_ = queue;
    return queue;
  };
  server_.set_tcp_nodelay(true);
  server_.set_keep_alive_max_count(options_.keep_alive_max_requests);
  server_.set_keep_alive_timeout(options_.keep_alive_timeout_s);
  server_.set_read_timeout(options_.read_timeout_s, 0);
  server_.set_write_timeout(options_.write_timeout_s, 0);
  server_.set_payload_max_length(options_.limits.max_body_bytes);
  server_.set_socket_options([this](socket_t fd) {
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    listen_fd_ = fd;
  });

  // A client that announces a body too large is told so before it sends it.
  server_.set_expect_100_continue_handler([this](const httplib::Request& req, httplib::Response& res) {
    const auto length = req.get_header_value<std::uint64_t>("Content-Length");
    if (length > options_.limits.max_body_bytes) {
      // cpp-httplib writes `res` as it is for any status but 100 and 417:
      // the status must be set here; the error handler adds the Error and closes.
      res.status = 413;
      return 413;
    }
    return 100;
  });
  server_.set_pre_routing_handler(
      [this](const httplib::Request& req, httplib::Response& res) { return before_routing(req, res); });
  // cpp-httplib calls its logger once a response is written: the corked
  // head and body leave as one segment (http/response_cork.h).
  server_.set_logger([](const httplib::Request& req, const httplib::Response& res) {
    if (const auto* c = current_connection(); c != nullptr && c->socket.value_or(-1) >= 0) {
      cork(*c->socket, false);
    }
    if (tl_seen.counted) {
      tl_seen.counted = false;
      const auto latency =
          std::chrono::steady_clock::now() -
          std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(tl_seen.start));
      RequestMetrics::get().answered(req.method, tl_seen.route, res.status, latency);
      request_log::end(req, res, tl_seen.route, latency);
    }
  });

  // cpp-httplib matches its handlers with std::regex; each sees only "/".
  const auto plain = [this](const httplib::Request& req, httplib::Response& res) {
    serve_request(req, res, nullptr);
  };
  const auto with_body = [this](const httplib::Request& req, httplib::Response& res,
                                const httplib::ContentReader& body) { serve_request(req, res, &body); };
  server_.Get("/", plain);
  server_.Options("/", plain);
  server_.Post("/", with_body);
  server_.Put("/", with_body);
  server_.Patch("/", with_body);
  server_.Delete("/", with_body);

  server_.set_error_handler(
      httplib::Server::HandlerWithResponse([this](const httplib::Request& req, httplib::Response& res) {
        if (has_content(res)) {
          return httplib::Server::HandlerResponse::Unhandled;  // an Error of ours already
        }
        const auto* stream = current_stream();
        refuse_and_close(req, res,
                         stream != nullptr && stream->head_timed_out()
                             ? ApiError(408, codes::kBadRequest, "the request's head did not arrive in time")
                             : library_error(res.status),
                         stopping_);
        return httplib::Server::HandlerResponse::Handled;
      }));
  server_.set_exception_handler(
      [this](const httplib::Request& req, httplib::Response& res, const std::exception_ptr& e) {
        refuse_and_close(req, res, error_from(e), stopping_);
      });
}

Server::~Server() {
  stop();
  if (bound_unix_socket_) {
    ::unlink(options_.unix_socket.c_str());
  }
}

void Server::bind_unix_socket() {
  const auto& path = options_.unix_socket;
  if (path.size() >= sizeof(sockaddr_un::sun_path)) {
    throw std::runtime_error("the Unix socket path " + path + " is longer than " +
                             std::to_string(sizeof(sockaddr_un::sun_path) - 1) + " bytes");
  }
  // A file left by a replica that died is replaced; one a live server
  // answers on is not taken from it.
  if (unix_socket_answers(path)) {
    throw std::runtime_error("a server already answers on " + path);
  }
  ::unlink(path.c_str());
  server_.set_address_family(AF_UNIX);
  // cpp-httplib 0.11.4 takes the host as the socket's path and returns the
  // port it was given for a Unix socket (0 would make it read a TCP port).
  if (!server_.bind_to_port(path, 1)) {
    throw std::runtime_error("cannot listen on " + path + ": " + std::strerror(errno));
  }
  bound_unix_socket_ = true;
  // Anyone on this host may connect, as to a loopback port: the entry
  // point's workers run as another user when nginx starts as root. Its
  // peers count as 127.0.0.1 (ServerOptions::unix_socket).
  ::chmod(path.c_str(), 0666);  // NOLINT(*-magic-numbers)
}

void Server::bind() {
  if (!options_.unix_socket.empty()) {
    bind_unix_socket();
  } else if (!server_.bind_to_port(options_.host, options_.port)) {
    throw std::runtime_error("cannot listen on " + options_.host + ":" + std::to_string(options_.port));
  }
  // Debian's cpp-httplib is compiled with a listen backlog of 5, and a burst
  // of connections then waits for SYN retransmits (1 s and more). Linux takes
  // a second listen() on a listening socket as a new backlog.
  if (listen_fd_ >= 0 && ::listen(listen_fd_, options_.listen_backlog) != 0) {
    log::warn("could not raise the listen backlog to {}", options_.listen_backlog);
  }
}

void Server::serve() {
  server_.listen_after_bind();
  queue_ = nullptr;
}

void Server::stop() {
  stopping_ = true;
  server_.stop();
}

bool Server::wait_handled(std::chrono::milliseconds timeout) const {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (handling_.load() > 0) {
    if (std::chrono::steady_clock::now() >= until) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

int Server::end_connections() const {
  // cpp-httplib keeps its accepted sockets to itself: they are this
  // process's connected sockets bound to this server's port or path (the
  // listener, closed by stop(), is not connected). A connection that a
  // worker closes between the check and the shutdown could lend its number
  // to a socket another thread opens meanwhile (a Redis or Kafka client's);
  // the window is two system calls, once per stop, and the worst it does
  // is end that client's connection, which reconnects.
  int ended = 0;
  net::for_each_descriptor([&](int fd) {
    const bool ours = options_.unix_socket.empty() ? net::local_port(fd) == options_.port
                                                   : net::local_unix_path(fd) == options_.unix_socket;
    if (ours && net::connected(fd) && ::shutdown(fd, SHUT_RD) == 0) {
      ++ended;
    }
    return true;
  });
  return ended;
}

httplib::Server::HandlerResponse Server::before_routing(const httplib::Request& req, httplib::Response& res) {
  using R = httplib::Server::HandlerResponse;
  tl_pending.active = false;
  tl_seen = {std::chrono::steady_clock::now().time_since_epoch().count(), nullptr, true};
  auto* stream = current_stream();
  if (stream != nullptr) {
    stream->head_complete();
    if (const auto* head = stream->head()) {
      restore_head(mutable_request(req), *head);
    }
  }
  choose_coding(mutable_request(req));
  request_log::begin(req);
  const StampOnExit stamp(res);  // answered here or not
  if (!options_.unix_socket.empty()) {
    // cpp-httplib leaves a Unix peer's address empty (and its port the
    // peer's pid): the peer is on this host (ServerOptions::unix_socket).
    mutable_request(req).remote_addr = "127.0.0.1";
  }
  auto* conn = current_connection();
  if (conn != nullptr && options_.unix_socket.empty()) {
    if (!conn->socket) {
      conn->socket = stream != nullptr ? stream->socket() : -1;
    }
    if (*conn->socket >= 0) {
      cork(*conn->socket, true);  // until the logger, after the response (http/response_cork.h)
    }
  }
  if (conn != nullptr && conn->poisoned) {
    refuse_and_close(req, res,
                     ApiError(400, codes::kBadRequest,
                              "an earlier request on this connection was refused before its body was read; "
                              "open a new connection"),
                     stopping_);
    return R::Handled;
  }
  if (conn != nullptr && conn->overflow) {
    RequestMetrics::get().overloaded();
    refuse_and_close(
        req, res,
        ApiError(503, codes::kOverloaded, "the service has too many connections in progress; retry")
            .retry_after(1),
        stopping_);
    return R::Handled;
  }
  // The API serves no partial content: without this, cpp-httplib would cut
  // a JSON body to whatever Range the client asked for.
  mutable_request(req).ranges.clear();

  auto head = inspect_head(req, options_.limits);
  auto match = router_.match(req.method, req.path);
  if (head.refusal) {
    refuse_and_close(req, res, head.body_on_bodiless_method && match.error ? *match.error : *head.refusal,
                     stopping_);
    return R::Handled;
  }
  tl_seen.route = match.route != nullptr ? &match.route->path : nullptr;
  if (!routable_method(req.method)) {
    // CONNECT, TRACE and methods cpp-httplib does not know (a stand-in
    // brought them here, http/request_head.h): no route serves them, and
    // cpp-httplib has no handler table for them, so they are answered here,
    // 405 with Allow (or 404). One with a body is answered before the body,
    // which is left unread, so its connection closes.
    if (head.body != Body::None && match.error) {
      refuse_and_close(req, res, *match.error, stopping_);
      return R::Handled;
    }
    const Handling handling(handling_);
    router_.handle(req, res, match);
    closing(req, res);
    return R::Handled;
  }
  tl_pending.active = true;
  tl_pending.path = req.path;
  tl_pending.match = std::move(match);
  tl_pending.body = head.body;
  mutable_request(req).path = "/";  // the only path cpp-httplib's regex table sees
  return R::Unhandled;
}

void Server::serve_request(const httplib::Request& req, httplib::Response& res,
                           const httplib::ContentReader* body) {
  const Handling handling(handling_);
  const StampOnExit stamp(res);
  if (!tl_pending.active) {
    refuse_and_close(req, res, ApiError(500, codes::kInternalError, "internal error"), stopping_);
    return;
  }
  tl_pending.active = false;
  auto& r = mutable_request(req);
  r.path = std::move(tl_pending.path);

  auto* stream = current_stream();
  const bool chunked_body = body != nullptr && tl_pending.body == Body::Chunked && stream != nullptr;
  if (chunked_body && req.has_header("Content-Encoding")) {
    // cpp-httplib inflates a body it reads; this path reads its own.
    refuse_and_close(
        req, res,
        ApiError(415, codes::kUnsupportedMediaType,
                 "a chunked request body must not be content-coded; send it with Content-Length"),
        stopping_);
    return;
  }
  if (chunked_body) {
    // Decoded here, strictly, rather than by cpp-httplib, which took a
    // chunk size of "0x5" or "-5", data longer than its chunk, and trailer
    // fields into the headers (http/chunked.h).
    auto chunked = read_chunked(
        [stream](char* out, size_t max) {
          const auto n = stream->read(out, max);
          return n > 0 ? static_cast<size_t>(n) : size_t{0};
        },
        options_.limits.max_body_bytes);
    if (chunked.outcome != ChunkedBody::Outcome::Whole) {
      const bool late = chunked.outcome == ChunkedBody::Outcome::Incomplete;
      refuse_and_close(req, res,
                       chunked.outcome == ChunkedBody::Outcome::TooLarge
                           ? ApiError(413, codes::kPayloadTooLarge, chunked.why)
                           : ApiError(late ? 408 : 400, codes::kBadRequest, chunked.why),
                       stopping_);
      return;
    }
    r.body = std::move(chunked.data);
  } else if (body != nullptr && tl_pending.body != Body::None) {
    // Read here rather than by cpp-httplib, which bounds a Content-Length
    // but not what Content-Encoding inflates to.
    std::string data;
    bool too_large = false;
    const auto limit = options_.limits.max_body_bytes;
    const bool whole = (*body)([&](const char* bytes, size_t n) {
      if (data.size() + n > limit) {
        too_large = true;
        return false;
      }
      data.append(bytes, n);
      return true;
    });
    if (!whole) {
      refuse_and_close(req, res,
                       too_large
                           ? ApiError(413, codes::kPayloadTooLarge,
                                      "the request body exceeds " + std::to_string(limit) + " bytes")
                           : ApiError(400, codes::kBadRequest,
                                      "the request body is incomplete or its chunked framing is malformed"),
                       stopping_);
      return;
    }
    r.body = std::move(data);
  }
  router_.handle(req, res, tl_pending.match);
  closing(req, res);
}

// After a response: close the connection if the server is stopping (the
// client reconnects to a replica that is not), or if connections are
// waiting for a worker (this one's thread then serves the next of them,
// instead of idling on a keep-alive connection while others queue).
void Server::closing(const httplib::Request& req, httplib::Response&) const {
  const auto* queue = queue_.load(std::memory_order_relaxed);
  if (stopping_.load(std::memory_order_relaxed) || (queue != nullptr && queue->waiting() > 0)) {
    announce_close(req);
  }
}

}  // namespace petstore::http
