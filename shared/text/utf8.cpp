#include "text/utf8.h"

namespace petstore::text {
namespace {

// Length of the well-formed sequence starting at `i`, or 0 if there is none
// (the table of well-formed byte sequences, Unicode 15, section 3.9, D92).
size_t sequence_length(std::string_view s, size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    return 1;
  }
  size_t n = 0;
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    lo = b0 == 0xE0 ? 0xA0 : 0x80;  // no overlong forms
    hi = b0 == 0xED ? 0x9F : 0xBF;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    lo = b0 == 0xF0 ? 0x90 : 0x80;  // no overlong forms
    hi = b0 == 0xF4 ? 0x8F : 0xBF;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + n > s.size()) {
    return 0;
  }
  const auto b1 = static_cast<unsigned char>(s[i + 1]);
  if (b1 < lo || b1 > hi) {
    return 0;
  }
  for (size_t k = 2; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if (b < 0x80 || b > 0xBF) {
      return 0;
    }
  }
  return n;
}

}  // namespace

bool is_valid_utf8(std::string_view bytes) {
  for (size_t i = 0; i < bytes.size();) {
    const auto n = sequence_length(bytes, i);
    if (n == 0) {
      return false;
    }
    i += n;
  }
  return true;
}

std::string to_valid_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    const auto n = sequence_length(bytes, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(bytes.substr(i, n));
      i += n;
    }
  }
  return out;
}

size_t code_points(std::string_view utf8) {
  size_t n = 0;
  for (const char c : utf8) {
    // Continuation bytes are 10xxxxxx; every other byte starts a code point.
    n += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
  }
  return n;
}

bool has_control_characters(std::string_view utf8) {
  for (size_t i = 0; i < utf8.size(); ++i) {
    const auto b = static_cast<unsigned char>(utf8[i]);
    if (b < 0x20 || b == 0x7F) {
      return true;
    }
    // U+0080..U+009F are encoded as C2 80..C2 9F.
    if (b == 0xC2 && i + 1 < utf8.size()) {
      const auto next = static_cast<unsigned char>(utf8[i + 1]);
      if (next >= 0x80 && next <= 0x9F) {
        return true;
      }
    }
  }
  return false;
}

bool is_blank(std::string_view text) {
  for (const char c : text) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      return false;
    }
  }
  return true;
}

}  // namespace petstore::text
