#include "http/response_cork.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace petstore::http {
namespace {

// A socket descriptor closed at the end of the test.
struct Fd {
  int fd;
  explicit Fd(int f) : fd(f) {}
  ~Fd() {
    if (fd >= 0) {
      ::close(fd);
    }
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
};

// The local port of the socket `fd`.
int port_of(int fd) {
  sockaddr_in addr{};
  socklen_t len = sizeof(addr);
  return getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0 ? ntohs(addr.sin_port) : -1;
}

// A loopback connection: the listener, the client's end and the server's.
struct Loopback {
  Fd listener{::socket(AF_INET, SOCK_STREAM, 0)};
  Fd client{::socket(AF_INET, SOCK_STREAM, 0)};
  Fd server{-1};

  Loopback() {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    auto* any = reinterpret_cast<sockaddr*>(&addr);
    EXPECT_EQ(::bind(listener.fd, any, sizeof(addr)), 0);
    EXPECT_EQ(::listen(listener.fd, 1), 0);
    addr.sin_port = htons(static_cast<uint16_t>(port_of(listener.fd)));
    EXPECT_EQ(::connect(client.fd, any, sizeof(addr)), 0);
    server.fd = ::accept(listener.fd, nullptr, nullptr);
    EXPECT_GE(server.fd, 0);
  }
};

TEST(FindTcpSocket, FindsTheServersEndOfAConnectionByItsAddresses) {
  const Loopback c;
  const int server_port = port_of(c.server.fd);
  const int client_port = port_of(c.client.fd);
  EXPECT_EQ(find_tcp_socket("127.0.0.1", server_port, "127.0.0.1", client_port), c.server.fd);
  // The same two ports seen from the other end are the client's socket.
  EXPECT_EQ(find_tcp_socket("127.0.0.1", client_port, "127.0.0.1", server_port), c.client.fd);
}

TEST(FindTcpSocket, AnswersMinusOneForAConnectionThatIsNotThere) {
  const Loopback c;
  const int server_port = port_of(c.server.fd);
  const int client_port = port_of(c.client.fd);
  EXPECT_EQ(find_tcp_socket("127.0.0.2", server_port, "127.0.0.1", client_port), -1);
  EXPECT_EQ(find_tcp_socket("127.0.0.1", server_port, "127.0.0.1", client_port + 1), -1);
  EXPECT_EQ(find_tcp_socket("::1", server_port, "::1", client_port), -1);
}

TEST(Cork, SetsAndClearsTcpCork) {
  const Loopback c;
  const auto corked = [&] {
    int value = -1;
    socklen_t len = sizeof(value);
    EXPECT_EQ(getsockopt(c.server.fd, IPPROTO_TCP, TCP_CORK, &value, &len), 0);
    return value != 0;
  };
  EXPECT_FALSE(corked());
  cork(c.server.fd, true);
  EXPECT_TRUE(corked());
  cork(c.server.fd, false);
  EXPECT_FALSE(corked());
}

}  // namespace
}  // namespace petstore::http
