#pragma once

#include <sys/socket.h>

#include <functional>
#include <string>

namespace petstore::net {

// Sockets this process has open that a library made and does not hand out:
// cpp-httplib's accepted connections (http/response_cork.h). The kernel
// lists every descriptor under /proc/self/fd; this calls `visit`
// with each, in the directory's order, until `visit` returns false. It
// costs a system call a descriptor, so callers look once, not per request.
void for_each_descriptor(const std::function<bool(int fd)>& visit);

// The port of an IPv4 or IPv6 address; -1 for any other family.
int port_of(const sockaddr_storage& addr);

// The local port `fd` is bound to, or -1 (not a socket, not bound, not IP).
int local_port(int fd);

// The path a Unix-domain socket `fd` is bound to: for a connection a
// listener accepted, the listener's path. Empty for any other descriptor
// (an unbound client end, an IP socket, not a socket).
std::string local_unix_path(int fd);

// Whether `fd` is a socket connected to a peer (getpeername succeeds): an
// accepted or connected socket, not a listener.
bool connected(int fd);

}  // namespace petstore::net
