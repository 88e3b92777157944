#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include <httplib.h>

#include "http/connection_loop.h"
#include "http/request_guard.h"
#include "http/router.h"

namespace petstore::http {

class TaskQueue;

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8081;
  // Workers: cpp-httplib serves each connection on one thread from its
  // first request to its close, so this bounds open connections served at once.
  size_t threads = 128;
  // Accepted connections waiting for a worker; past it, 503 overloaded.
  size_t max_queued = 256;
  RequestLimits limits;
  size_t keep_alive_max_requests = 1000;
  int keep_alive_timeout_s = 5;  // an idle keep-alive connection is closed after this
  // Each read of a request waits at most this, and a request's line and
  // headers must all arrive within it (http::ConnectionStream).
  int read_timeout_s = 5;
  int write_timeout_s = 5;  // each write of a response waits at most this
  int listen_backlog = 4096;
  // When set, the server listens on this Unix-domain socket instead of
  // host:port (HTTP_UNIX_SOCKET adds such a server beside the TCP one; see
  // service::serve). A peer on it is a process of this host and counts as
  // 127.0.0.1: trusted as a proxy exactly when loopback is (TRUSTED_PROXIES).
  std::string unix_socket;
};

// The HTTP/1.1 server of every service: cpp-httplib's httplib::Server,
// configured (docs/http-server.md), with a connection loop of our own
// (http::ConnectionLoop). Our code runs at three points of its request
// cycle:
// - before routing (its pre-routing handler): inspect_head() checks the
//   request line and headers, and the router matches the path, without
//   std::regex; a refusal closes the connection;
// - as the one handler per method that cpp-httplib's std::regex table holds
//   (for the path "/", which the pre-routing step substitutes, so its regex
//   never sees the client's path): it reads the body within the limit (a
//   chunked one with http::read_chunked) and runs the Router;
// - as its error handler: every status it produces itself (400 on an
//   unparsable request line, 414) gets an Error body.
class Server {
 public:
  Server(ServerOptions options, const Router& router);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds host:port, or the Unix socket; throws if it cannot, or if a live
  // server already answers on that socket.
  void bind();
  // Serves until stop(); returns once every connection has been answered.
  void serve();
  // From any thread: stop accepting (the listening socket closes at once),
  // answer requests in progress with Connection: close, then return from serve().
  void stop();
  // Waits until no request is being handled (one may still be on its way
  // in), for at most `timeout`; false if one still was. After stop(), the
  // moment the replica's part in the requests it accepted is done; idle
  // keep-alive connections still hold serve() until end_connections().
  bool wait_handled(std::chrono::milliseconds timeout) const;
  // After stop(), and once wait_handled() says no request is being handled:
  // ends every connection this server accepted after the response it is
  // writing, if any, by shutting its reading side. A worker waiting for the
  // next request on an idle keep-alive connection then sees the end at once
  // rather than after keep_alive_timeout_s (cpp-httplib 0.11 looks for a
  // stop only between requests), and serve() returns. A request already
  // received is still read and answered; one that arrives as the
  // connection closes meets the race of any keep-alive close. Returns how
  // many connections it ended.
  int end_connections() const;

 private:
  httplib::Server::HandlerResponse before_routing(const httplib::Request& req, httplib::Response& res);
  void serve_request(const httplib::Request& req, httplib::Response& res, const httplib::ContentReader* body);
  void closing(const httplib::Request& req, httplib::Response& res) const;
  void bind_unix_socket();

  ServerOptions options_;
  const Router& router_;
  ConnectionLoop server_;
  int listen_fd_ = -1;
  bool bound_unix_socket_ = false;  // the socket file is ours to remove
  std::atomic<TaskQueue*> queue_{nullptr};
  std::atomic<bool> stopping_{false};
  std::atomic<int> handling_{0};  // requests between routing and their handler's end
};

}  // namespace petstore::http
