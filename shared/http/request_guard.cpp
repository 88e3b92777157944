#include "http/request_guard.h"

#include <charconv>
#include <string_view>

#include "error/codes.h"
#include "text/ascii.h"
#include "text/utf8.h"

namespace petstore::http {
namespace {

// Headers cpp-httplib adds to every request itself (process_request in
// cpp-httplib 0.11.4); they are not the client's and do not count.
constexpr std::string_view kAdded[] = {"REMOTE_ADDR", "REMOTE_PORT", "LOCAL_ADDR", "LOCAL_PORT"};

ApiError refuse(int status, std::string message, const char* code = codes::kBadRequest) {
  return {status, code, std::move(message)};
}

bool has_control_bytes(std::string_view s, bool allow_tab) {
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && !(allow_tab && c == '\t')) || c == 0x7F) {
      return true;
    }
  }
  return false;
}

// Text the client controls that the service may echo or store: visible
// bytes only, and UTF-8.
bool clean_text(std::string_view s) {
  return !has_control_bytes(s, false) && text::is_valid_utf8(s) && !text::has_control_characters(s);
}

// Methods a route serves whose requests carry no content here (RFC 9110,
// section 9.3): one with a body is refused. A method no route serves
// (TRACE, CONNECT, one the API does not know) may carry one; it is answered
// 405 before the body is read.
bool method_refuses_body(std::string_view m) {
  return m == "GET" || m == "HEAD" || m == "OPTIONS";
}

std::optional<ApiError> check_headers(const httplib::Request& req, const RequestLimits& limits) {
  // cpp-httplib adds four headers of its own to every request (one of each).
  size_t count = req.headers.size();
  for (const auto added : kAdded) {
    count -= req.headers.count(std::string(added)) > 0 ? size_t{1} : size_t{0};
  }
  if (count > limits.max_headers) {
    return refuse(431, "more than " + std::to_string(limits.max_headers) + " header fields");
  }
  size_t bytes = req.target.size() + req.method.size() + 12;
  for (const auto& [name, value] : req.headers) {
    bytes += name.size() + value.size() + 4;
    if (name.empty()) {
      return refuse(400, "a header has an empty name");
    }
    for (const char c : name) {
      if (!text::is_tchar(c)) {
        return refuse(400, "a header name holds a character that is not allowed");
      }
    }
    // The connection loop's head scan refuses these first; this holds for
    // any request, however it was read.
    if (has_control_bytes(value, true)) {
      return refuse(400, "the header " + name + " holds a control character");
    }
  }
  if (bytes > limits.max_head_bytes) {
    return refuse(431,
                  "the request line and headers exceed " + std::to_string(limits.max_head_bytes) + " bytes");
  }
  // Fields that hold one value (RFC 9110), which the service reads as one:
  // a second one would be ignored, not read, so it is refused.
  for (const char* single : {"Host", "Content-Type"}) {
    if (req.get_header_value_count(single) > 1) {
      return refuse(400, std::string("more than one ") + single + " header");
    }
  }
  if (req.get_header_value_count("Host") == 0 && req.version == "HTTP/1.1") {
    return refuse(400, "an HTTP/1.1 request needs a Host header");
  }
  return std::nullopt;
}

std::optional<ApiError> check_target(const httplib::Request& req, const RequestLimits& limits) {
  // The target as sent: ASCII without control bytes (RFC 9112, section 3.2).
  for (const char ch : req.target) {
    const auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c >= 0x7F) {
      return refuse(400, "the request target holds a byte that is not allowed (control, space or non-ASCII)");
    }
  }
  if (req.path.size() > limits.max_path_bytes) {
    return refuse(414, "the path exceeds " + std::to_string(limits.max_path_bytes) + " bytes");
  }
  if (req.path.empty() || req.path.front() != '/') {
    return refuse(400, "the request target must be an absolute path");
  }
  // The decoded path: %00, %0A and the like, or bytes that are not UTF-8.
  if (!clean_text(req.path)) {
    return refuse(400, "the path decodes to control characters or bytes that are not UTF-8");
  }
  if (req.params.size() > limits.max_query_params) {
    return refuse(400, "more than " + std::to_string(limits.max_query_params) + " query parameters",
                  codes::kInvalidQuery);
  }
  for (const auto& [name, value] : req.params) {
    if (!clean_text(name) || !clean_text(value)) {
      return refuse(400, "a query parameter decodes to control characters or bytes that are not UTF-8",
                    codes::kInvalidQuery);
    }
  }
  return std::nullopt;
}

std::optional<ApiError> check_framing(const httplib::Request& req, const RequestLimits& limits, Body& body,
                                      bool& bodiless) {
  const auto te_count = req.get_header_value_count("Transfer-Encoding");
  const auto cl_count = req.get_header_value_count("Content-Length");
  if (te_count > 1 || cl_count > 1) {
    return refuse(400, "Transfer-Encoding or Content-Length is given more than once");
  }
  if (te_count == 1 && cl_count == 1) {
    // A request smuggling vector (RFC 9112, section 6.1): refused, never guessed.
    return refuse(400, "a request must not have both Transfer-Encoding and Content-Length");
  }
  std::uint64_t length = 0;
  if (te_count == 1) {
    const auto te = req.get_header_value("Transfer-Encoding");
    bool chunked = te.size() == 7;
    for (size_t i = 0; chunked && i < te.size(); ++i) {
      chunked = (te[i] | 0x20) == "chunked"[i];
    }
    if (!chunked) {
      return refuse(400, "the only transfer coding accepted is chunked");
    }
    body = Body::Chunked;
  } else if (cl_count == 1) {
    const auto cl = req.get_header_value("Content-Length");
    const auto* end = cl.data() + cl.size();
    const auto [ptr, ec] = std::from_chars(cl.data(), end, length);
    if (cl.empty() || ec != std::errc{} || ptr != end) {
      return refuse(400, "Content-Length must be a decimal number of bytes");
    }
    if (length > limits.max_body_bytes) {
      return refuse(413, "the request body exceeds " + std::to_string(limits.max_body_bytes) + " bytes",
                    codes::kPayloadTooLarge);
    }
    body = length > 0 ? Body::Length : Body::None;
  }
  if (body != Body::None && method_refuses_body(req.method)) {
    bodiless = true;
    return refuse(400, req.method + " must not carry a body");
  }
  // Neither Content-Length nor Transfer-Encoding: the body is empty (RFC
  // 9112, section 6.3), and the request is answered as one with
  // Content-Length: 0 would be.
  return std::nullopt;
}

}  // namespace

HeadVerdict inspect_head(const httplib::Request& req, const RequestLimits& limits) {
  HeadVerdict v;
  if (auto e = check_headers(req, limits)) {
    v.refusal = std::move(e);
  } else if (auto t = check_target(req, limits)) {
    v.refusal = std::move(t);
  } else if (auto f = check_framing(req, limits, v.body, v.body_on_bodiless_method)) {
    v.refusal = std::move(f);
  }
  return v;
}

}  // namespace petstore::http
