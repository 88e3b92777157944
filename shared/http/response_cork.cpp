#include "http/response_cork.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <array>

#include "net/own_sockets.h"

namespace petstore::http {
namespace {

// The numeric host of `addr` as cpp-httplib spells it (getnameinfo with
// NI_NUMERICHOST).
std::string host_of(const sockaddr_storage& addr, socklen_t len) {
  std::array<char, NI_MAXHOST> host{};
  if (getnameinfo(reinterpret_cast<const sockaddr*>(&addr), len, host.data(), host.size(), nullptr, 0,
                  NI_NUMERICHOST) != 0) {
    return {};
  }
  return host.data();
}

}  // namespace

int find_tcp_socket(const std::string& local_addr, int local_port, const std::string& remote_addr,
                    int remote_port) {
  int found = -1;
  net::for_each_descriptor([&](int fd) {
    sockaddr_storage peer{};
    socklen_t peer_len = sizeof(peer);
    if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_len) != 0 ||
        net::port_of(peer) != remote_port) {
      return true;
    }
    sockaddr_storage local{};
    socklen_t local_len = sizeof(local);
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_len) != 0 ||
        net::port_of(local) != local_port) {
      return true;
    }
    if (host_of(peer, peer_len) == remote_addr && host_of(local, local_len) == local_addr) {
      found = fd;
      return false;
    }
    return true;
  });
  return found;
}

void cork(int fd, bool on) {
  const int value = on ? 1 : 0;
  setsockopt(fd, IPPROTO_TCP, TCP_CORK, &value, sizeof(value));
}

}  // namespace petstore::http
