// The entry point (deploy/nginx): each path goes to the service whose
// services/<name>/deploy/nginx.map names it, the rest to any replica; and
// in front of replicas that take a request and die before they answer, a
// read is tried on the next replica, but a write, PUT and DELETE included,
// reaches one replica only, since the one that took it may have appended it
// (a second would answer 412 or 404 for a write that is in the log), and
// its client is told outcome_unknown.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/http_json.h"
#include "support/service_process.h"
#include "support/stack.h"
#include "support/store_deployment.h"

namespace petstore::testing {
namespace {

// A replica that reads each request's head and closes the connection
// without a word, as one killed mid-request does.
class DyingReplica {
 public:
  DyingReplica() : port_(free_port()) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    const int on = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port_));
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || ::listen(fd_, 16) != 0) {
      throw std::runtime_error("cannot listen on " + std::to_string(port_));
    }
    thread_ = std::thread([this] { serve(); });
  }
  ~DyingReplica() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  DyingReplica(const DyingReplica&) = delete;
  DyingReplica& operator=(const DyingReplica&) = delete;

  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] int requests() const { return requests_; }

 private:
  void serve() {
    while (!stop_) {
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) {
        continue;
      }
      std::string head;
      char buf[4096];
      ssize_t n = 0;
      while (head.find("\r\n\r\n") == std::string::npos && (n = ::recv(c, buf, sizeof(buf), 0)) > 0) {
        head.append(buf, static_cast<size_t>(n));
      }
      if (head.find("\r\n\r\n") != std::string::npos) {
        ++requests_;
      }
      ::close(c);
    }
  }

  int port_;
  int fd_ = -1;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::thread thread_;
};

// A replica that answers every request with its service's name, the
// method and the path it was sent.
class NamingReplica {
 public:
  explicit NamingReplica(std::string name) : port_(free_port()) {
    // Before routing, so every method is answered alike (TRACE too).
    server_.set_pre_routing_handler(
        [name = std::move(name)](const httplib::Request& req, httplib::Response& res) {
          res.set_content(name + " " + req.method + " " + req.path, "text/plain");
          return httplib::Server::HandlerResponse::Handled;
        });
    thread_ = std::thread([this] { server_.listen("127.0.0.1", port_); });
    while (!server_.is_running()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  ~NamingReplica() {
    server_.stop();
    thread_.join();
  }
  NamingReplica(const NamingReplica&) = delete;
  NamingReplica& operator=(const NamingReplica&) = delete;

  [[nodiscard]] std::string line() const { return "    server 127.0.0.1:" + std::to_string(port_) + ";\n"; }

 private:
  int port_;
  httplib::Server server_;
  std::thread thread_;
};

TEST(EntryPoint, EachPathGoesToTheServiceWhoseMapNamesItAndTheRestToAnyReplica) {
  std::map<std::string, std::unique_ptr<NamingReplica>> replicas;
  std::map<std::string, std::string> servers;
  for (const auto& service : StoreDeployment::services()) {
    replicas[service] = std::make_unique<NamingReplica>(service);
    servers[service] = replicas[service]->line();
  }
  const auto platform = std::make_unique<NamingReplica>("any");
  servers["any"] = platform->line();
  const std::string run_dir = "/tmp/petstore-test-" + unique_name("routes");
  const auto entry = start_entry_point(run_dir, servers, "/docs/");
  auto http = entry->client();

  const std::vector<std::pair<std::string, std::string>> cases = {
      {"GET /pets/7/profile", "pets GET /pets/7/profile"},
      {"GET /categories", "pets GET /categories"},
      {"GET /store/orders?petId=1", "orders GET /store/orders"},
      {"PUT /store/inventory/items/7", "inventory PUT /store/inventory/items/7"},
      {"TRACE /store/orders/3", "orders TRACE /store/orders/3"},
      {"GET /healthz/orders", "orders GET /healthz"},
      {"GET /readyz/inventory", "inventory GET /readyz"},
      {"GET /readyz", "any GET /readyz"},
      {"GET /healthz/nobody", "any GET /healthz/nobody"},
      {"GET /admin/keys", "any GET /admin/keys"},
      {"GET /no/such/route", "any GET /no/such/route"}};
  for (const auto& [request, answered] : cases) {
    httplib::Request req;
    req.method = request.substr(0, request.find(' '));
    req.path = request.substr(request.find(' ') + 1);
    if (req.method == "PUT") {
      req.body = "{}";
      req.headers.emplace("Content-Type", "application/json");
    }
    const auto r = http->send(req);
    ASSERT_TRUE(r) << request;
    EXPECT_EQ(r->body, answered) << request;
  }
  std::error_code ignored;
  std::filesystem::remove_all(run_dir, ignored);
}

TEST(EntryPoint, AWriteReachesOneReplicaOnlyAndAReadIsTriedOnTheNext) {
  DyingReplica a;
  DyingReplica b;
  const int nobody = free_port();
  // max_fails=0: a replica that failed is not set aside, so every request
  // meets both.
  const auto line = [](int port) {
    return "    server 127.0.0.1:" + std::to_string(port) + " max_fails=0;\n";
  };
  const std::string run_dir = "/tmp/petstore-test-" + unique_name("entry");
  std::map<std::string, std::string> servers;
  for (const auto& service : StoreDeployment::services()) {
    servers[service] = line(a.port()) + line(b.port());
  }
  servers["orders"] = line(nobody);
  servers["any"] = line(a.port()) + line(b.port());
  const auto entry = start_entry_point(run_dir, servers, "/docs/");
  auto http = entry->client();

  struct Case {
    std::string method;
    std::string path;
    bool write;
  };
  const std::vector<Case> cases = {{"PUT", "/pets/1/status", true},
                                   {"DELETE", "/pets/1", true},
                                   {"PUT", "/store/inventory/items/1", true},
                                   {"POST", "/pets", true},
                                   {"PATCH", "/admin/keys/0123456789abcdef", true},
                                   {"GET", "/pets/1", false}};
  for (const auto& c : cases) {
    const int before = a.requests() + b.requests();
    httplib::Request req;
    req.method = c.method;
    req.path = c.path;
    req.headers = {{"If-Match", "\"1\""}};
    if (c.method != "GET" && c.method != "DELETE") {
      req.body = R"({"status":"sold"})";
      req.headers.emplace("Content-Type", "application/json");
    }
    const auto r = http->send(req);
    ASSERT_TRUE(r) << c.method << " " << c.path;
    EXPECT_EQ(r->status, 503) << c.method << " " << c.path << ": " << r->body;
    EXPECT_EQ(error_code(r), c.write ? "outcome_unknown" : "service_unavailable")
        << c.method << " " << c.path;
    EXPECT_EQ(a.requests() + b.requests() - before, c.write ? 1 : 2)
        << c.method << " " << c.path << (c.write ? " was sent to a second replica" : " was not tried again");
  }
  std::error_code ignored;
  std::filesystem::remove_all(run_dir, ignored);
}

}  // namespace
}  // namespace petstore::testing
