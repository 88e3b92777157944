// http::Server's stop, over a Unix socket of its own: wait_handled() tells
// a stopping replica when the requests it is handling are answered, which is
// when it resigns its partitions (service::serve).
#include "http/server.h"

#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
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

}  // namespace
}  // namespace petstore::http
