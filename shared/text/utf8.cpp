#include "text/utf8.h"

namespace petstore::text {

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
