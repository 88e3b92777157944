#include "http/response_cork.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace petstore::http {

void cork(int fd, bool on) {
  const int value = on ? 1 : 0;
  setsockopt(fd, IPPROTO_TCP, TCP_CORK, &value, sizeof(value));
}

}  // namespace petstore::http
