#pragma once

#include <httplib.h>

#include "http/connection_stream.h"

namespace petstore::http {

// cpp-httplib's server with a connection loop of our own: each connection
// is read and written through a ConnectionStream that lives as long as the
// connection, and cpp-httplib parses, routes and answers each request on
// it (its process_request). Its own loop made a stream per request, which
// lost pipelined requests, and bounded each read but not a request's head
// (http/connection_stream.h). Settings are cpp-httplib's: keep-alive count
// and timeout, read and write timeouts; a head must arrive within the read
// timeout.
class ConnectionLoop final : public httplib::Server {
 private:
  bool process_and_close_socket(socket_t sock) override;
};

// The stream of the connection this thread is serving, or nullptr.
ConnectionStream* current_stream();

}  // namespace petstore::http
