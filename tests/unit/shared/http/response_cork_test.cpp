#include "http/response_cork.h"

#include <netinet/tcp.h>
#include <sys/socket.h>

#include <gtest/gtest.h>

#include "support/loopback_connection.h"

namespace petstore::http {
namespace {

using net::local_port;
using testing::LoopbackConnection;

TEST(FindTcpSocket, FindsTheServersEndOfAConnectionByItsAddresses) {
  const LoopbackConnection c;
  const int server_port = local_port(c.server.fd);
  const int client_port = local_port(c.client.fd);
  EXPECT_EQ(find_tcp_socket("127.0.0.1", server_port, "127.0.0.1", client_port), c.server.fd);
  // The same two ports seen from the other end are the client's socket.
  EXPECT_EQ(find_tcp_socket("127.0.0.1", client_port, "127.0.0.1", server_port), c.client.fd);
}

TEST(FindTcpSocket, AnswersMinusOneForAConnectionThatIsNotThere) {
  const LoopbackConnection c;
  const int server_port = local_port(c.server.fd);
  const int client_port = local_port(c.client.fd);
  EXPECT_EQ(find_tcp_socket("127.0.0.2", server_port, "127.0.0.1", client_port), -1);
  EXPECT_EQ(find_tcp_socket("127.0.0.1", server_port, "127.0.0.1", client_port + 1), -1);
  EXPECT_EQ(find_tcp_socket("::1", server_port, "::1", client_port), -1);
}

TEST(Cork, SetsAndClearsTcpCork) {
  const LoopbackConnection c;
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
