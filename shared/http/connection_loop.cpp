#include "http/connection_loop.h"

#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace petstore::http {
namespace {

thread_local ConnectionStream* tl_stream = nullptr;

class StreamScope {
 public:
  explicit StreamScope(ConnectionStream& s) { tl_stream = &s; }
  ~StreamScope() { tl_stream = nullptr; }
  StreamScope(const StreamScope&) = delete;
  StreamScope& operator=(const StreamScope&) = delete;
};

const char* reason(int status) {
  switch (status) {
    case 408:
      return "Request Timeout";
    case 431:
      return "Request Header Fields Too Large";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Bad Request";
  }
}

// The answer to a request whose head was refused before cpp-httplib saw
// it (or whose request line did not arrive in time, where cpp-httplib
// gives up without a word); the connection closes after it.
void answer_and_close(ConnectionStream& strm, const ApiError& error) {
  const auto body = error.to_json();
  const auto response =
      "HTTP/1.1 " + std::to_string(error.status) + " " + reason(error.status) +
      "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
      "\r\nConnection: close\r\n\r\n" + body;
  strm.write(response.data(), response.size());
}

}  // namespace

ConnectionStream* current_stream() {
  return tl_stream;
}

bool ConnectionLoop::process_and_close_socket(socket_t sock) {
  const std::chrono::seconds read(read_timeout_sec_);
  ConnectionStream strm(sock, {read, std::chrono::seconds(write_timeout_sec_), read});
  const StreamScope scope(strm);
  bool ret = false;
  // A stop is looked for between requests, as cpp-httplib's own loop does:
  // an idle connection waits for its next request, which is answered with
  // Connection: close, until the server ends it (http::Server::end_connections).
  for (auto left = keep_alive_max_count_; left > 0 && svr_sock_ != INVALID_SOCKET; --left) {
    if (!strm.next_request(std::chrono::seconds(keep_alive_timeout_sec_))) {
      break;
    }
    const auto head = strm.take_head();
    if (!head.ready) {
      if (head.refusal) {
        answer_and_close(strm, *head.refusal);
      }
      break;
    }
    bool closed = false;
    ret = process_request(strm, left == 1, closed, nullptr);
    if (!ret || closed) {
      break;
    }
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ret;
}

}  // namespace petstore::http
