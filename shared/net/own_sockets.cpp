#include "net/own_sockets.h"

#include <dirent.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/un.h>

#include <array>
#include <charconv>
#include <cstddef>
#include <cstring>
#include <memory>
#include <system_error>

namespace petstore::net {
namespace {

struct DirCloser {
  void operator()(DIR* d) const { closedir(d); }
};

}  // namespace

void for_each_descriptor(const std::function<bool(int fd)>& visit) {
  const std::unique_ptr<DIR, DirCloser> dir(opendir("/proc/self/fd"));
  if (!dir) {
    return;
  }
  const int own = dirfd(dir.get());
  while (const dirent* entry = readdir(dir.get())) {
    int fd = -1;
    const auto* name = entry->d_name;
    if (std::from_chars(name, name + std::strlen(name), fd).ec != std::errc{} || fd < 0 || fd == own) {
      continue;  // "." and "..", and the directory being read
    }
    if (!visit(fd)) {
      return;
    }
  }
}

int port_of(const sockaddr_storage& addr) {
  if (addr.ss_family == AF_INET) {
    return ntohs(reinterpret_cast<const sockaddr_in&>(addr).sin_port);
  }
  if (addr.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<const sockaddr_in6&>(addr).sin6_port);
  }
  return -1;
}

int local_port(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    return -1;
  }
  return port_of(addr);
}

std::string local_unix_path(int fd) {
  sockaddr_un addr{};
  socklen_t len = sizeof(addr);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0 || addr.sun_family != AF_UNIX ||
      len <= offsetof(sockaddr_un, sun_path) || addr.sun_path[0] == '\0') {
    return {};  // not Unix, unbound, or abstract
  }
  return {static_cast<const char*>(addr.sun_path),
          strnlen(static_cast<const char*>(addr.sun_path), len - offsetof(sockaddr_un, sun_path))};
}

bool connected(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  return getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
}

}  // namespace petstore::net
