#include "http/chunked.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include "text/ascii.h"

namespace petstore::http {
namespace {

using Outcome = ChunkedBody::Outcome;

// A chunk-size line, a chunk extension or a trailer field may take this much.
constexpr std::size_t kMaxLine = 4096;
// The trailer section, all its fields together.
constexpr std::size_t kMaxTrailer = 8192;

// Reads byte by byte from `read` through a small buffer of its own, which
// never holds bytes past what the caller asked for: a line is read up to
// its LF and no further.
class Input {
 public:
  explicit Input(const ReadSome& read) : read_(read) {}

  // The next line without its CRLF; false when the input ended first, or
  // the line is longer than kMaxLine (`too_long`), or it ends in a bare LF
  // (`bare_lf`).
  bool line(std::string& out, bool& too_long, bool& bare_lf) {
    out.clear();
    too_long = false;
    bare_lf = false;
    for (;;) {
      char c = 0;
      if (!byte(c)) {
        return false;
      }
      if (c == '\n') {
        if (out.empty() || out.back() != '\r') {
          bare_lf = true;
          return false;
        }
        out.pop_back();
        return true;
      }
      if (out.size() >= kMaxLine) {
        too_long = true;
        return false;
      }
      out.push_back(c);
    }
  }

  // Exactly `n` bytes appended to `out`; false when the input ended first.
  bool bytes(std::string& out, std::size_t n) {
    std::array<char, 4096> buf{};
    while (n > 0) {
      const auto got = read_(buf.data(), std::min(n, buf.size()));
      if (got == 0) {
        return false;
      }
      out.append(buf.data(), got);
      n -= got;
    }
    return true;
  }

 private:
  bool byte(char& c) { return read_(&c, 1) == 1; }

  const ReadSome& read_;
};

ChunkedBody fail(Outcome outcome, std::string why) {
  return {outcome, {}, std::move(why)};
}

// The value of hex digit `c`, or -1.
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

// The chunk size of a chunk-size line ("1a", "1a;name=value"); false when
// it is not 1 to 16 hex digits, optionally followed by an extension of
// visible characters and spaces.
bool chunk_size(std::string_view line, std::size_t& size) {
  std::size_t i = 0;
  std::uint64_t v = 0;
  for (; i < line.size() && hex_value(line[i]) >= 0; ++i) {
    if (i == 16) {
      return false;
    }
    v = v * 16 + static_cast<std::uint64_t>(hex_value(line[i]));
  }
  if (i == 0) {
    return false;
  }
  const auto ext = line.substr(i);
  if (!ext.empty()) {
    // chunk-ext = *( BWS ";" BWS name [ BWS "=" BWS value ] ): what it
    // says is ignored, but it holds no control bytes and starts with ";".
    const auto first = ext.find_first_not_of(" \t");
    if (first == std::string_view::npos || ext[first] != ';') {
      return false;
    }
    for (const char c : ext) {
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) {
        return false;
      }
    }
  }
  size = static_cast<std::size_t>(v);
  return v <= static_cast<std::uint64_t>(static_cast<std::size_t>(-1));
}

}  // namespace

ChunkedBody read_chunked(const ReadSome& read, std::size_t max_bytes) {
  Input in(read);
  ChunkedBody body;
  std::string line;
  bool too_long = false;
  bool bare_lf = false;
  const auto line_failure = [&](const char* what) {
    if (too_long) {
      return fail(Outcome::Malformed,
                  std::string(what) + " is longer than " + std::to_string(kMaxLine) + " bytes");
    }
    if (bare_lf) {
      return fail(Outcome::Malformed, std::string(what) + " does not end in CRLF");
    }
    return fail(Outcome::Incomplete, "the chunked body ended before its last chunk");
  };
  for (;;) {
    if (!in.line(line, too_long, bare_lf)) {
      return line_failure("a chunk-size line");
    }
    std::size_t size = 0;
    if (!chunk_size(line, size)) {
      return fail(Outcome::Malformed,
                  "a chunk size must be 1 to 16 hex digits, optionally followed by ';' and an "
                  "extension");
    }
    if (size == 0) {
      break;
    }
    if (size > max_bytes - body.data.size()) {
      return fail(Outcome::TooLarge, "the request body exceeds " + std::to_string(max_bytes) + " bytes");
    }
    if (!in.bytes(body.data, size)) {
      return fail(Outcome::Incomplete, "a chunk ended before its declared size");
    }
    if (!in.line(line, too_long, bare_lf) || !line.empty()) {
      if (!too_long && !bare_lf && line.empty()) {
        return fail(Outcome::Incomplete, "the chunked body ended before its last chunk");
      }
      return fail(Outcome::Malformed,
                  "a chunk's data is longer than its declared size, or not followed by CRLF");
    }
  }
  // The trailer section: fields until an empty line, checked and dropped.
  std::size_t trailer = 0;
  for (;;) {
    if (!in.line(line, too_long, bare_lf)) {
      return line_failure("a trailer field");
    }
    if (line.empty()) {
      return body;
    }
    trailer += line.size() + 2;
    if (trailer > kMaxTrailer) {
      return fail(Outcome::Malformed,
                  "the trailer section exceeds " + std::to_string(kMaxTrailer) + " bytes");
    }
    const auto colon = line.find(':');
    if (colon == 0 || colon == std::string::npos ||
        !std::all_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(colon), text::is_tchar)) {
      return fail(Outcome::Malformed, "a trailer field is not name: value");
    }
    const std::string_view name(line.data(), colon);
    if (text::equals_ignoring_case(name, "content-length") ||
        text::equals_ignoring_case(name, "transfer-encoding") || text::equals_ignoring_case(name, "host")) {
      return fail(Outcome::Malformed, "a trailer field must not be " + std::string(name));
    }
    for (const char c : line.substr(colon + 1)) {
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) {
        return fail(Outcome::Malformed, "a trailer field's value holds a control character");
      }
    }
  }
}

}  // namespace petstore::http
