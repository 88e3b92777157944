#pragma once

#include <string>
#include <thread>

#include <httplib.h>

#include "http/router.h"

namespace petstore::testing {

// A replica's HTTP edge on an ephemeral loopback port: an httplib server
// whose every POST goes to `router`.
class LoopbackServer {
 public:
  explicit LoopbackServer(http::Router& router) {
    server_.Post(".*", [&](const httplib::Request& req, httplib::Response& res) { router.handle(req, res); });
    server_.set_keep_alive_timeout(1);  // a stop waits for kept-alive connections
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~LoopbackServer() {
    server_.stop();
    thread_.join();
  }
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;
  [[nodiscard]] std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  [[nodiscard]] int port() const { return port_; }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

}  // namespace petstore::testing
