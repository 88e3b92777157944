// http::Server's stop, over a Unix socket of its own: wait_handled() tells
// a stopping replica when the requests it is handling are answered, which is
// when it resigns its partitions (service::serve).
#include "http/server.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "http/response.h"
#include "http/router.h"

namespace petstore::http {
namespace {

using namespace std::chrono_literals;

TEST(Server, WaitHandledWaitsForTheHandlerInProgressAcrossAStop) {
  std::atomic<bool> entered{false};
  std::promise<void> release;
  const auto released = release.get_future().share();
  Router routes;
  routes.add("GET", "/slow", [&](const httplib::Request&, httplib::Response& res, const PathParams&) {
    entered = true;
    released.wait();
    send_json(res, 200, "{}");
  });

  ServerOptions options;
  options.unix_socket = (std::filesystem::temp_directory_path() /
                         ("petstore-server-test-" + std::to_string(getpid()) + ".sock"))
                            .string();
  Server server(options, routes);
  server.bind();
  std::thread serving([&] { server.serve(); });
  EXPECT_TRUE(server.wait_handled(0ms)) << "nothing handled yet";

  std::promise<httplib::Result> answer;
  std::thread client([&] {
    httplib::Client c(options.unix_socket);  // not a URL: the path is the host
    c.set_address_family(AF_UNIX);
    c.set_keep_alive(true);
    answer.set_value(c.Get("/slow", {{"Host", "localhost"}}));
  });
  while (!entered) {
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_FALSE(server.wait_handled(50ms));
  server.stop();
  EXPECT_FALSE(server.wait_handled(50ms)) << "a stop does not cut a handler short";

  release.set_value();
  EXPECT_TRUE(server.wait_handled(5s));
  const auto res = answer.get_future().get();
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->get_header_value("Connection"), "close") << "a stopping server ends the connection";
  client.join();
  serving.join();
}

// A client's idle keep-alive connection would hold a stopped server for
// keep_alive_timeout_s (a minute here); end_connections() ends it at once.
TEST(Server, EndConnectionsEndsAnIdleKeepAliveConnectionAfterAStop) {
  Router routes;
  routes.add("GET", "/ping", [](const httplib::Request&, httplib::Response& res, const PathParams&) {
    send_json(res, 200, "{}");
  });
  ServerOptions options;
  options.keep_alive_timeout_s = 60;
  options.unix_socket =
      (std::filesystem::temp_directory_path() / ("petstore-server-end-" + std::to_string(getpid()) + ".sock"))
          .string();
  Server server(options, routes);
  server.bind();
  std::promise<void> served;
  std::thread serving([&] {
    server.serve();
    served.set_value();
  });

  const int client = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const timeval wait{5, 0};  // a server that keeps the connection fails the test, not hangs it
  ::setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait));
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(static_cast<char*>(addr.sun_path), options.unix_socket.data(), options.unix_socket.size());
  ASSERT_EQ(::connect(client, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)),
            0);  // NOLINT(*-reinterpret-cast)
  const std::string request = "GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n";
  ASSERT_EQ(::send(client, request.data(), request.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(request.size()));
  // cpp-httplib may write the head and the body apart (seen under load), so
  // read the whole response, as far as its Content-Length says.
  std::array<char, 4096> buf{};
  std::string response;
  for (;;) {
    const auto n = ::recv(client, buf.data(), buf.size(), 0);
    ASSERT_GT(n, 0) << "the response ended early: " << response;
    response.append(buf.data(), static_cast<size_t>(n));
    const auto head_end = response.find("\r\n\r\n");
    const auto length_at = response.find("Content-Length: ");
    if (head_end != std::string::npos && length_at != std::string::npos && length_at < head_end &&
        response.size() - (head_end + 4) >= std::stoul(response.substr(length_at + 16))) {
      break;
    }
  }
  ASSERT_NE(response.find("200 OK"), std::string::npos) << response;
  ASSERT_EQ(response.find("Connection: close"), std::string::npos) << "kept alive: " << response;
  std::this_thread::sleep_for(100ms);  // the worker waits for the next request

  server.stop();
  EXPECT_EQ(served.get_future().wait_for(500ms), std::future_status::timeout)
      << "a stop alone leaves an idle keep-alive connection open";
  ASSERT_TRUE(server.wait_handled(5s));
  EXPECT_EQ(server.end_connections(), 1);
  EXPECT_EQ(::recv(client, buf.data(), buf.size(), 0), 0) << "the server closed the connection";
  serving.join();
  ::close(client);
}

// A server of its own on a Unix socket, answering GET /n/{n} with its n,
// and a raw client connection to it.
class RawServer {
 public:
  explicit RawServer(const std::string& name, int read_timeout_s = 5) {
    routes_.add("GET", "/n/{n}", [](const httplib::Request&, httplib::Response& res, const PathParams& p) {
      send_json(res, 200, "{\"n\":" + p.text(0) + "}");
    });
    routes_.add("POST", "/echo", [](const httplib::Request& req, httplib::Response& res, const PathParams&) {
      send_json(res, 200, req.body);
    });
    options_.read_timeout_s = read_timeout_s;
    options_.unix_socket = (std::filesystem::temp_directory_path() /
                            ("petstore-" + name + "-" + std::to_string(getpid()) + ".sock"))
                               .string();
    server_ = std::make_unique<Server>(options_, routes_);
    server_->bind();
    serving_ = std::thread([this] { server_->serve(); });
  }
  ~RawServer() {
    server_->stop();
    server_->end_connections();
    serving_.join();
    ::close(client_);
  }
  RawServer(const RawServer&) = delete;
  RawServer& operator=(const RawServer&) = delete;

  void connect() {
    client_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const timeval wait{15, 0};
    ::setsockopt(client_, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait));
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(static_cast<char*>(addr.sun_path), options_.unix_socket.data(), options_.unix_socket.size());
    ASSERT_EQ(::connect(client_, reinterpret_cast<const sockaddr*>(&addr),
                        sizeof(addr)),  // NOLINT(*-reinterpret-cast)
              0);
  }
  void send(const std::string& bytes) const {
    ASSERT_EQ(::send(client_, bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size()));
  }
  bool try_send(const std::string& bytes) const {
    return ::send(client_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
  }
  // Everything the server sends until it closes the connection (or 15 s pass).
  [[nodiscard]] std::string until_closed() const {
    std::string all;
    std::array<char, 4096> buf{};
    for (ssize_t n = 0; (n = ::recv(client_, buf.data(), buf.size(), 0)) > 0;) {
      all.append(buf.data(), static_cast<size_t>(n));
    }
    return all;
  }

 private:
  Router routes_;
  ServerOptions options_;
  std::unique_ptr<Server> server_;
  std::thread serving_;
  int client_ = -1;
};

// RFC 9112, section 9.3.2: requests sent without waiting for the answers
// are answered in order. cpp-httplib's own loop read them all at once, lost
// all but the first, and waited for more.
TEST(Server, AnswersPipelinedRequestsInOrder) {
  RawServer s("pipelined");
  s.connect();
  s.send(
      "GET /n/1 HTTP/1.1\r\nHost: x\r\n\r\nPOST /echo HTTP/1.1\r\nHost: x\r\n"
      "Content-Length: 7\r\n\r\n{\"n\":2}GET /n/3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const auto start = std::chrono::steady_clock::now();
  const auto all = s.until_closed();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s) << "answered at once, not after a timeout";
  const auto one = all.find(R"({"n":1})");
  const auto two = all.find(R"({"n":2})");
  const auto three = all.find(R"({"n":3})");
  ASSERT_NE(one, std::string::npos) << all;
  ASSERT_NE(two, std::string::npos) << all;
  ASSERT_NE(three, std::string::npos) << all;
  EXPECT_LT(one, two);
  EXPECT_LT(two, three);
}

TEST(Server, AChunkedBodyIsDecodedAndTheNextRequestFollowsIt) {
  RawServer s("chunked");
  s.connect();
  s.send(
      "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
      "chunked\r\n\r\n3\r\n{\"n\r\n4\r\n\":4}\r\n0\r\n\r\n"
      "GET /n/5 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const auto all = s.until_closed();
  EXPECT_NE(all.find(R"({"n":4})"), std::string::npos) << all;
  EXPECT_NE(all.find(R"({"n":5})"), std::string::npos) << all;
}

TEST(Server, AMalformedChunkIsRefusedWith400AndTheConnectionClosed) {
  RawServer s("bad-chunk");
  s.connect();
  s.send(
      "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0x2\r\n{}\r\n0\r\n\r\n"
      "GET /n/6 HTTP/1.1\r\nHost: x\r\n\r\n");
  const auto all = s.until_closed();
  EXPECT_EQ(all.rfind("HTTP/1.1 400", 0), 0U) << all;
  EXPECT_EQ(all.find(R"({"n":6})"), std::string::npos)
      << "nothing after the malformed body is served: " << all;
}

// A head that trickles in, a byte at a time, each before the read timeout,
// still has to arrive within it as a whole.
TEST(Server, AHeadThatDoesNotArriveInTimeIs408) {
  RawServer s("trickle", 1);
  s.connect();
  const auto start = std::chrono::steady_clock::now();
  s.send("GET /n/7 HTTP/1.1\r\n");
  for (const char c : std::string("Host: x\r\nX-Pad: 12345678\r\n\r\n")) {
    std::this_thread::sleep_for(200ms);
    if (!s.try_send(std::string(1, c))) {
      break;  // the server gave up on us: what it said is read below
    }
  }
  const auto all = s.until_closed();
  EXPECT_EQ(all.rfind("HTTP/1.1 408", 0), 0U) << all;
  EXPECT_EQ(all.find("HTTP/1.1", 1), std::string::npos) << "one answer: " << all;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 4s);
}

// The same for a request line that never ends: cpp-httplib gives up on it
// without a word, and the connection loop answers.
TEST(Server, ARequestLineThatDoesNotArriveInTimeIs408) {
  RawServer s("trickle-line", 1);
  s.connect();
  s.send("GET /n/");
  for (int i = 0; i < 20 && s.try_send("1"); ++i) {
    std::this_thread::sleep_for(200ms);
  }
  const auto all = s.until_closed();
  EXPECT_EQ(all.rfind("HTTP/1.1 408", 0), 0U) << all;
  EXPECT_NE(all.find(R"("code":"bad_request")"), std::string::npos) << all;
  EXPECT_EQ(all.find("HTTP/1.1", 1), std::string::npos) << "one answer: " << all;
}

// Over TCP, a request names its peer and the server's own address as
// cpp-httplib's stream did (the rate limiter and the forwarder read them).
TEST(Server, ARequestOverTcpNamesBothEnds) {
  Router routes;
  routes.add("GET", "/who", [](const httplib::Request& req, httplib::Response& res, const PathParams&) {
    send_json(res, 200,
              "{\"remote\":\"" + req.remote_addr + "\",\"local\":\"" + req.local_addr + ":" +
                  std::to_string(req.local_port) + "\",\"peer_port\":" + std::to_string(req.remote_port) +
                  "}");
  });
  ServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  const int probe = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in any{};
  any.sin_family = AF_INET;
  any.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(any);
  ASSERT_EQ(::bind(probe, reinterpret_cast<const sockaddr*>(&any), sizeof(any)),
            0);                                                                 // NOLINT(*-reinterpret-cast)
  ASSERT_EQ(::getsockname(probe, reinterpret_cast<sockaddr*>(&any), &len), 0);  // NOLINT(*-reinterpret-cast)
  options.port = ntohs(any.sin_port);
  ::close(probe);
  Server server(options, routes);
  server.bind();
  std::thread serving([&] { server.serve(); });
  httplib::Client c("127.0.0.1", options.port);
  const auto res = c.Get("/who");
  server.stop();
  server.end_connections();
  serving.join();
  ASSERT_TRUE(res);
  EXPECT_NE(res->body.find("\"remote\":\"127.0.0.1\""), std::string::npos) << res->body;
  EXPECT_NE(res->body.find("\"local\":\"127.0.0.1:" + std::to_string(options.port) + "\""), std::string::npos)
      << res->body;
  EXPECT_EQ(res->body.find("\"peer_port\":0}"), std::string::npos) << res->body;
}

}  // namespace
}  // namespace petstore::http
