#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "net/own_sockets.h"

namespace petstore::testing {

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

// A socket listening on a free loopback port, for a test's own server.
struct LoopbackListener {
  Fd listener{::socket(AF_INET, SOCK_STREAM, 0)};
  sockaddr_in addr{};

  LoopbackListener() {
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(listener.fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    EXPECT_EQ(::listen(listener.fd, 1), 0);
    addr.sin_port = htons(static_cast<uint16_t>(net::local_port(listener.fd)));
  }
  [[nodiscard]] int port() const { return ntohs(addr.sin_port); }
};

// A TCP connection over loopback within the test's process: the listener,
// the client's end and the server's.
struct LoopbackConnection : LoopbackListener {
  Fd client{::socket(AF_INET, SOCK_STREAM, 0)};
  Fd server{-1};

  LoopbackConnection() {
    EXPECT_EQ(::connect(client.fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    server.fd = ::accept(listener.fd, nullptr, nullptr);
    EXPECT_GE(server.fd, 0);
  }
};

}  // namespace petstore::testing
