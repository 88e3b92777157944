// http::Server's stop, over a Unix socket of its own: wait_handled() tells
// a stopping replica when the requests it is handling are answered, which is
// when it resigns its partitions (service::serve).
#include "http/server.h"

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

}  // namespace
}  // namespace petstore::http
