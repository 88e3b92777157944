#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace petstore::text {

// Number of Unicode code points in valid UTF-8 (the JSON parser has already
// refused invalid UTF-8), which is what a "100 characters" limit means to a
// user, unlike bytes.
size_t code_points(std::string_view utf8);

// True if the text holds a C0/C1 control character (newline, tab, NUL, ...).
bool has_control_characters(std::string_view utf8);

// True if `bytes` is well-formed UTF-8 (RFC 3629): no overlong forms, no
// surrogates (U+D800..U+DFFF), nothing above U+10FFFF.
bool is_valid_utf8(std::string_view bytes);

// `bytes` with every ill-formed sequence replaced by U+FFFD, for echoing
// untrusted input (a path, a header) inside a JSON error message.
std::string to_valid_utf8(std::string_view bytes);

// True if the text is empty or only ASCII white space.
bool is_blank(std::string_view text);

}  // namespace petstore::text
