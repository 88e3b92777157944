#include "http/response_cork.h"

#include <netinet/tcp.h>
#include <sys/socket.h>

#include <gtest/gtest.h>

#include "support/loopback_connection.h"

namespace petstore::http {
namespace {

using testing::LoopbackConnection;

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
