#include "http/request_head.h"

#include <array>

#include "text/ascii.h"

namespace petstore::http {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

HeadScan malformed(std::string why) {
  HeadScan s;
  s.outcome = HeadScan::Outcome::Malformed;
  s.why = std::move(why);
  return s;
}

// The next line of `bytes` from `pos`, without its LF or CRLF; false when no
// LF has come yet. A CR anywhere but before the LF is left in the line (and
// refused by whoever reads it).
bool next_line(std::string_view bytes, size_t& pos, std::string_view& line) {
  const auto lf = bytes.find('\n', pos);
  if (lf == std::string_view::npos) {
    return false;
  }
  line = bytes.substr(pos, lf - pos);
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  pos = lf + 1;
  return true;
}

// "GET /pets HTTP/1.1" into `head`; the refusal's reason, or empty.
std::string request_line(std::string_view line, RequestHead& head, bool& unsupported_version) {
  const auto first = line.find(' ');
  const auto second = first == std::string_view::npos ? first : line.find(' ', first + 1);
  if (second == std::string_view::npos || line.find(' ', second + 1) != std::string_view::npos) {
    return "the request line must be a method, a target and a version, each after one space";
  }
  const auto method = line.substr(0, first);
  const auto target = line.substr(first + 1, second - first - 1);
  const auto version = line.substr(second + 1);
  if (!text::is_token(method)) {
    return "the method is not a token";
  }
  if (target.empty()) {
    return "the request target is empty";
  }
  for (const char ch : target) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7F) {
      return "the request target holds a byte that is not allowed (control, space or non-ASCII)";
    }
  }
  if (version.size() != 8 || !version.starts_with("HTTP/") || !is_digit(version[5]) || version[6] != '.' ||
      !is_digit(version[7])) {
    return "the HTTP version is malformed";
  }
  if (version[5] != '1') {
    unsupported_version = true;
    return "only HTTP/1.x is served here";
  }
  head.method = method;
  head.target = target;
  head.version = version[7] == '0' ? "HTTP/1.0" : "HTTP/1.1";
  return "";
}

// "Name: value" into `head`; the refusal's reason, or empty.
std::string field_line(std::string_view line, RequestHead& head) {
  if (line.front() == ' ' || line.front() == '\t') {
    return "obsolete line folding is not accepted; send each field on one line";
  }
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) {
    return "a header line has no colon";
  }
  const auto name = line.substr(0, colon);
  if (!text::is_token(name)) {
    return name.ends_with(' ') || name.ends_with('\t')
               ? "whitespace between a header name and its colon"
               : "a header name holds a character that is not allowed";
  }
  const auto value = text::trim_ows(line.substr(colon + 1));
  for (const char ch : value) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\t') || c == 0x7F) {
      return "the header " + std::string(name) + " holds a control character";
    }
  }
  head.fields.push_back({std::string(name), std::string(value)});
  return "";
}

}  // namespace

HeadScan scan_request_head(std::string_view bytes) {
  size_t pos = 0;
  while (pos < bytes.size() &&
         (bytes[pos] == '\n' || (bytes[pos] == '\r' && pos + 1 < bytes.size() && bytes[pos + 1] == '\n'))) {
    pos += bytes[pos] == '\r' ? size_t{2} : size_t{1};
  }
  HeadScan scan;
  std::string_view line;
  if (!next_line(bytes, pos, line)) {
    return scan;
  }
  bool unsupported = false;
  if (auto why = request_line(line, scan.head, unsupported); !why.empty()) {
    auto refused = malformed(std::move(why));
    if (unsupported) {
      refused.outcome = HeadScan::Outcome::VersionNotSupported;
    }
    return refused;
  }
  while (next_line(bytes, pos, line)) {
    if (line.empty()) {
      scan.outcome = HeadScan::Outcome::Whole;
      scan.consumed = pos;
      return scan;
    }
    if (line.find('\r') != std::string_view::npos) {
      return malformed("a header line holds a bare CR");
    }
    if (auto why = field_line(line, scan.head); !why.empty()) {
      return malformed(std::move(why));
    }
  }
  scan.head = {};
  return scan;
}

bool parser_knows_method(std::string_view method) {
  static constexpr std::array<std::string_view, 10> kKnown = {
      "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "PRI"};
  for (const auto known : kKnown) {
    if (method == known) {
      return true;
    }
  }
  return false;
}

std::string canonical_head(const RequestHead& head) {
  std::string out;
  out.reserve(head.target.size() + 64 * (head.fields.size() + 1));
  out.append(parser_knows_method(head.method) ? head.method : std::string("TRACE"));
  out.append(" ").append(head.target).append(" ").append(head.version).append("\r\n");
  for (const auto& [name, value] : head.fields) {
    if (value.empty() || (head.version == "HTTP/1.0" && text::equals_ignoring_case(name, "expect"))) {
      continue;
    }
    out.append(name).append(": ");
    for (const char c : value) {
      if (c == '%') {
        out.append("%25");
      } else {
        out.push_back(c);
      }
    }
    out.append("\r\n");
  }
  out.append("\r\n");
  return out;
}

}  // namespace petstore::http
