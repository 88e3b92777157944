#include "net/own_sockets.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "support/loopback_connection.h"

namespace petstore::net {
namespace {

using testing::LoopbackConnection;

std::set<int> descriptors() {
  std::set<int> all;
  for_each_descriptor([&](int fd) {
    all.insert(fd);
    return true;
  });
  return all;
}

TEST(ForEachDescriptor, VisitsEverySocketTheProcessHasOpen) {
  const LoopbackConnection c;
  const auto all = descriptors();
  EXPECT_EQ(all.count(c.listener.fd), 1U);
  EXPECT_EQ(all.count(c.client.fd), 1U);
  EXPECT_EQ(all.count(c.server.fd), 1U);
  EXPECT_EQ(all.count(0), 1U);  // and the rest: standard input
}

TEST(ForEachDescriptor, VisitsNoDescriptorThatIsClosed) {
  int closed = -1;
  {
    const LoopbackConnection c;
    closed = c.server.fd;
  }
  EXPECT_EQ(descriptors().count(closed), 0U);
}

TEST(ForEachDescriptor, StopsWhenTheVisitorSaysSo) {
  const LoopbackConnection c;
  int visited = 0;
  for_each_descriptor([&](int) { return ++visited < 2; });
  EXPECT_EQ(visited, 2);
}

TEST(LocalPort, IsThePortASocketIsBoundTo) {
  const LoopbackConnection c;
  const int port = local_port(c.listener.fd);
  EXPECT_GT(port, 0);
  EXPECT_EQ(local_port(c.server.fd), port);  // an accepted connection has its listener's port
  EXPECT_NE(local_port(c.client.fd), port);
  EXPECT_EQ(local_port(0), -1);  // not a socket (or not an IP one)
}

TEST(Connected, TellsAConnectionFromAListener) {
  const LoopbackConnection c;
  EXPECT_TRUE(connected(c.server.fd));
  EXPECT_TRUE(connected(c.client.fd));
  EXPECT_FALSE(connected(c.listener.fd));
  EXPECT_FALSE(connected(0));
}

TEST(LocalUnixPath, IsTheListenersPathForAnAcceptedConnectionOnly) {
  const auto path = "/tmp/petstore-own-sockets-" + std::to_string(getpid()) + ".sock";
  ::unlink(path.c_str());
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof(addr.sun_path));
  std::memcpy(static_cast<char*>(addr.sun_path), path.data(), path.size());
  const auto* a = reinterpret_cast<const sockaddr*>(&addr);  // NOLINT(*-reinterpret-cast)
  const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_EQ(::bind(listener, a, sizeof(addr)), 0);
  ASSERT_EQ(::listen(listener, 1), 0);
  const int client = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_EQ(::connect(client, a, sizeof(addr)), 0);
  const int accepted = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
  ASSERT_GE(accepted, 0);

  EXPECT_EQ(local_unix_path(accepted), path);
  EXPECT_EQ(local_unix_path(listener), path);
  EXPECT_EQ(local_unix_path(client), "") << "a client's end is not bound";
  const LoopbackConnection tcp;
  EXPECT_EQ(local_unix_path(tcp.server.fd), "");
  EXPECT_EQ(local_unix_path(0), "");  // not a socket

  for (const int fd : {accepted, client, listener}) {
    ::close(fd);
  }
  ::unlink(path.c_str());
}

}  // namespace
}  // namespace petstore::net
