#pragma once

#include <cstddef>
#include <optional>

#include <httplib.h>

#include "http/api_error.h"

namespace petstore::http {

// Bounds on what a request may be, checked before its body is read.
struct RequestLimits {
  size_t max_body_bytes = size_t{16} * 1024;
  size_t max_head_bytes = size_t{16} * 1024;  // request line and headers together
  size_t max_headers = 100;
  size_t max_path_bytes = 2048;
  size_t max_query_params = 32;
};

// How the request says its body is framed.
enum class Body { None, Length, Chunked };

struct HeadVerdict {
  Body body = Body::None;
  // Why the request is refused; a refused request's connection is closed,
  // since whatever body it declared is left unread.
  std::optional<ApiError> refusal;
  // The refusal is only that a GET, HEAD or OPTIONS carries a body: where
  // the path does not serve that method, its 405 (or 404) says more.
  bool body_on_bodiless_method = false;
};

// Pure checks of a request's line and headers as cpp-httplib parsed them:
// framing (Content-Length and Transfer-Encoding, alone and together, and on
// which methods), Host, sizes and counts, and that the target, path, query
// and header values hold no control bytes and decode to valid UTF-8. The
// statuses: 400 bad_request (and invalid_query), 413, 414 and 431.
HeadVerdict inspect_head(const httplib::Request& req, const RequestLimits& limits);

}  // namespace petstore::http
