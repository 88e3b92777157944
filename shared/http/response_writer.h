#pragma once

#include <string>

#include <httplib.h>

namespace petstore::http {

// The bytes of an HTTP/1.1 response: status line, the response's headers,
// Content-Length, `Connection: close` when the connection ends after it, and
// the body (none for HEAD, 204 or 304). One buffer, so it goes out in one
// write and, with TCP_NODELAY, usually one segment.
std::string serialize_response(const httplib::Response& res, bool head_request, bool keep_alive);

// "OK", "Not Found", ...: the reason phrase for a status.
const char* reason_phrase(int status);

}  // namespace petstore::http
