#include "mock_cluster.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "net/own_sockets.h"
#include "support/loopback_connection.h"

namespace petstore::tools {
namespace {

bool nodelay(int fd) {
  int value = -1;
  socklen_t len = sizeof(value);
  EXPECT_EQ(getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &value, &len), 0);
  return value != 0;
}

// This process's sockets on `port`: its listener (not connected) or the
// connections it accepted.
std::vector<int> sockets_on(int port, bool accepted) {
  std::vector<int> found;
  net::for_each_descriptor([&](int fd) {
    if (net::local_port(fd) == port && net::connected(fd) == accepted) {
      found.push_back(fd);
    }
    return true;
  });
  return found;
}

// A client connected to `port`; the mock's thread accepts it.
struct Client {
  testing::Fd socket{::socket(AF_INET, SOCK_STREAM, 0)};
  explicit Client(int port) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    EXPECT_EQ(::connect(socket.fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  }
};

// The mock's end of the connection from `client`, once its thread has
// accepted it (it polls its listeners every few milliseconds).
std::optional<int> accepted(int port, const Client& client) {
  const int client_port = net::local_port(client.socket.fd);
  for (int i = 0; i < 200; ++i) {
    if (const int fd = net::find_tcp_socket("127.0.0.1", port, "127.0.0.1", client_port); fd >= 0) {
      return fd;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return std::nullopt;
}

TEST(MockCluster, EveryBrokerListensWithNagleOff) {
  const MockCluster cluster(3);
  const auto ports = cluster.ports();
  ASSERT_EQ(ports.size(), 3U);
  for (const int port : ports) {
    const auto listeners = sockets_on(port, false);
    ASSERT_EQ(listeners.size(), 1U) << port;
    EXPECT_TRUE(nodelay(listeners.front())) << port;
  }
}

TEST(MockCluster, TheConnectionsABrokerAcceptsHaveNagleOff) {
  const MockCluster cluster(3);
  for (const int port : cluster.ports()) {
    const Client client(port);
    const auto fd = accepted(port, client);
    ASSERT_TRUE(fd.has_value()) << port;
    EXPECT_TRUE(nodelay(*fd)) << port;
  }
}

TEST(MockCluster, ABrokerBackFromDownStillAcceptsWithNagleOff) {
  MockCluster cluster(3);
  const auto port = cluster.ports().at(1);
  cluster.broker_down(2);  // broker ids count from 1
  cluster.broker_up(2);
  const auto listeners = sockets_on(port, false);
  ASSERT_EQ(listeners.size(), 1U);
  EXPECT_TRUE(nodelay(listeners.front()));
  const Client client(port);
  const auto fd = accepted(port, client);
  ASSERT_TRUE(fd.has_value());
  EXPECT_TRUE(nodelay(*fd));
}

}  // namespace
}  // namespace petstore::tools
