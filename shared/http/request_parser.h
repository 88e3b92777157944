#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <httplib.h>

namespace petstore::http {

struct ParseLimits {
  size_t max_head_bytes = size_t{16} * 1024;  // request line and headers
  size_t max_body_bytes = size_t{16} * 1024;
};

// The result of looking for one HTTP/1.1 request at the front of a buffer.
struct Parsed {
  enum class State {
    Incomplete,  // need more bytes
    Complete,    // a whole request, `consumed` bytes long
    Invalid,     // answer `status` with `message` and close the connection
  };
  State state = State::Incomplete;
  size_t consumed = 0;
  bool keep_alive = true;         // Complete: the client allows another request on the connection
  bool expects_continue = false;  // Incomplete after the head: the client waits for 100 Continue
  int status = 0;                 // Invalid
  std::string message;            // Invalid
};

// Parses one request (RFC 9112) from `data` into `into`: method, path
// (percent-decoded), query parameters, headers, body (Content-Length or
// chunked). Pure: no I/O, so every malformed input can be unit-tested.
// Refuses with a status what the service cannot or will not take: a head
// over the limit (431), a body over the limit (413), a write without a
// length (411 is what RFC says; we answer 400 as the API always did), and
// anything malformed (400).
Parsed parse_request(std::string_view data, const ParseLimits& limits, httplib::Request& into);

// Percent-decoding into `out`; `plus_is_space` for query strings. False on a
// bad escape.
bool percent_decode(std::string_view in, bool plus_is_space, std::string& out);

}  // namespace petstore::http
