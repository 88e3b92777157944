#include "http/request_parser.h"

#include <algorithm>
#include <charconv>
#include <optional>

namespace petstore::http {
namespace {

constexpr std::string_view kCrlf = "\r\n";

Parsed invalid(int status, std::string message) {
  Parsed p;
  p.state = Parsed::State::Invalid;
  p.status = status;
  p.message = std::move(message);
  p.keep_alive = false;
  return p;
}

bool is_token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool is_token(std::string_view s) {
  return !s.empty() && std::ranges::all_of(s, is_token_char);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
    s.remove_suffix(1);
  }
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x >= 'A' && x <= 'Z' ? x + 32 : x) == (y >= 'A' && y <= 'Z' ? y + 32 : y);
         });
}

// A comma-separated header value names `token` (Connection: keep-alive, Upgrade).
bool lists(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    const auto comma = value.find(',');
    if (iequals(trim(value.substr(0, comma)), token)) {
      return true;
    }
    if (comma == std::string_view::npos) {
      break;
    }
    value.remove_prefix(comma + 1);
  }
  return false;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

bool parse_query(std::string_view query, httplib::Params& params) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    const auto pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (pair.empty()) {
      continue;
    }
    const auto eq = pair.find('=');
    std::string name;
    std::string value;
    if (!percent_decode(pair.substr(0, eq), true, name) ||
        (eq != std::string_view::npos && !percent_decode(pair.substr(eq + 1), true, value))) {
      return false;
    }
    params.emplace(std::move(name), std::move(value));
  }
  return true;
}

// Request line: METHOD SP origin-form SP HTTP/1.x
Parsed parse_request_line(std::string_view line, httplib::Request& into, bool& http10) {
  const auto sp1 = line.find(' ');
  const auto sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos) {
    return invalid(400, "the request line is not METHOD TARGET HTTP-VERSION");
  }
  const auto method = line.substr(0, sp1);
  const auto target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  const auto version = line.substr(sp2 + 1);
  if (!is_token(method)) {
    return invalid(400, "the method is not a token");
  }
  if (version != "HTTP/1.1" && version != "HTTP/1.0") {
    return invalid(version.starts_with("HTTP/") ? 505 : 400, "only HTTP/1.1 and HTTP/1.0 are served");
  }
  if (target.empty() || target.front() != '/') {
    return invalid(400, "the request target must be a path (origin-form)");
  }
  http10 = version == "HTTP/1.0";
  const auto question = target.find('?');
  into.method.assign(method);
  into.version.assign(version);
  into.target.assign(target);
  if (!percent_decode(target.substr(0, question), false, into.path) ||
      into.path.find('\0') != std::string::npos) {
    return invalid(400, "the path has a bad percent-escape");
  }
  if (question != std::string_view::npos && !parse_query(target.substr(question + 1), into.params)) {
    return invalid(400, "the query string has a bad percent-escape");
  }
  return {};
}

// Decodes a chunked body (RFC 9112 section 7.1); trailers are read and dropped.
Parsed parse_chunked(std::string_view data, size_t start, const ParseLimits& limits, std::string& body) {
  size_t pos = start;
  body.clear();
  for (;;) {
    const auto eol = data.find(kCrlf, pos);
    if (eol == std::string_view::npos) {
      return data.size() - pos > 1024 ? invalid(400, "a chunk size line is too long") : Parsed{};
    }
    auto size_text = data.substr(pos, eol - pos);
    size_text = size_text.substr(0, size_text.find(';'));  // chunk extensions are ignored
    size_text = trim(size_text);
    size_t size = 0;
    const auto [end, ec] = std::from_chars(size_text.data(), size_text.data() + size_text.size(), size, 16);
    if (ec != std::errc{} || end != size_text.data() + size_text.size() || size_text.empty()) {
      return invalid(400, "a chunk size is not hexadecimal");
    }
    if (size > limits.max_body_bytes || body.size() + size > limits.max_body_bytes) {
      return invalid(413, "request body exceeds the size limit");
    }
    pos = eol + kCrlf.size();
    if (size == 0) {
      // Trailer fields, then the empty line.
      for (;;) {
        const auto line_end = data.find(kCrlf, pos);
        if (line_end == std::string_view::npos) {
          return {};
        }
        if (line_end == pos) {
          Parsed done;
          done.state = Parsed::State::Complete;
          done.consumed = line_end + kCrlf.size();
          return done;
        }
        pos = line_end + kCrlf.size();
      }
    }
    if (data.size() < pos + size + kCrlf.size()) {
      return {};
    }
    if (data.substr(pos + size, kCrlf.size()) != kCrlf) {
      return invalid(400, "a chunk is longer than its size");
    }
    body.append(data.substr(pos, size));
    pos += size + kCrlf.size();
  }
}

}  // namespace

bool percent_decode(std::string_view in, bool plus_is_space, std::string& out) {
  out.clear();
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) {
        return false;
      }
      const int hi = hex_value(in[i + 1]);
      const int lo = hex_value(in[i + 2]);
      if (hi < 0 || lo < 0) {
        return false;
      }
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return true;
}

Parsed parse_request(std::string_view data, const ParseLimits& limits, httplib::Request& into) {
  // Tolerate empty lines before a request (RFC 9112 section 2.2).
  size_t start = 0;
  while (data.substr(start, kCrlf.size()) == kCrlf) {
    start += kCrlf.size();
  }
  const auto head_end = data.find("\r\n\r\n", start);
  if (head_end == std::string_view::npos) {
    if (data.size() - start > limits.max_head_bytes) {
      return invalid(
          431, "the request line and headers exceed " + std::to_string(limits.max_head_bytes) + " bytes");
    }
    return {};
  }
  if (head_end - start > limits.max_head_bytes) {
    return invalid(431,
                   "the request line and headers exceed " + std::to_string(limits.max_head_bytes) + " bytes");
  }

  const auto head = data.substr(start, head_end - start);
  const auto line_end = head.find(kCrlf);
  bool http10 = false;
  if (auto p = parse_request_line(head.substr(0, line_end), into, http10);
      p.state == Parsed::State::Invalid) {
    return p;
  }

  std::optional<size_t> content_length;
  bool chunked = false;
  bool close = http10;
  bool expects_continue = false;
  auto rest = line_end == std::string_view::npos ? std::string_view{} : head.substr(line_end + kCrlf.size());
  while (!rest.empty()) {
    const auto eol = rest.find(kCrlf);
    const auto line = rest.substr(0, eol);
    rest = eol == std::string_view::npos ? std::string_view{} : rest.substr(eol + kCrlf.size());
    if (line.front() == ' ' || line.front() == '\t') {
      return invalid(400, "obsolete header line folding is not accepted");
    }
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || !is_token(line.substr(0, colon))) {
      return invalid(400, "a header line is not NAME: VALUE");
    }
    const auto name = line.substr(0, colon);
    const auto value = trim(line.substr(colon + 1));
    if (value.find_first_of("\r\n") != std::string_view::npos || value.find('\0') != std::string_view::npos) {
      return invalid(400, "a header value has a control character");
    }
    if (iequals(name, "Content-Length")) {
      size_t n = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc{} || end != value.data() + value.size() || value.empty() ||
          (content_length && *content_length != n)) {
        return invalid(400, "Content-Length is not one decimal number");
      }
      content_length = n;
    } else if (iequals(name, "Transfer-Encoding")) {
      if (!iequals(value, "chunked")) {
        return invalid(501, "only the chunked transfer coding is understood");
      }
      chunked = true;
    } else if (iequals(name, "Connection")) {
      if (lists(value, "close")) {
        close = true;
      } else if (lists(value, "keep-alive")) {
        close = false;
      }
    } else if (iequals(name, "Expect")) {
      expects_continue = iequals(value, "100-continue");
    }
    into.headers.emplace(std::string(name), std::string(value));
  }
  if (chunked && content_length) {
    return invalid(400, "Content-Length and Transfer-Encoding together");  // a smuggling vector
  }
  const bool write = into.method == "POST" || into.method == "PUT" || into.method == "PATCH";
  if (write && !chunked && !content_length) {
    return invalid(400, "a " + into.method + " needs a Content-Length");
  }
  if (content_length && *content_length > limits.max_body_bytes) {
    return invalid(413, "request body exceeds the size limit");
  }

  const size_t body_start = head_end + 4;
  Parsed p;
  p.keep_alive = !close;
  if (chunked) {
    auto c = parse_chunked(data, body_start, limits, into.body);
    c.keep_alive = !close;
    c.expects_continue = expects_continue && c.state == Parsed::State::Incomplete;
    return c;
  }
  const size_t length = content_length.value_or(0);
  if (data.size() - body_start < length) {
    p.expects_continue = expects_continue;
    return p;
  }
  into.body.assign(data.substr(body_start, length));
  p.state = Parsed::State::Complete;
  p.consumed = body_start + length;
  return p;
}

}  // namespace petstore::http
