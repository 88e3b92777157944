#pragma once

#include <cstddef>
#include <string_view>

namespace petstore::text {

// Number of Unicode code points in valid UTF-8 (the JSON parser has already
// refused invalid UTF-8), which is what a "100 characters" limit means to a
// user, unlike bytes.
size_t code_points(std::string_view utf8);

// True if the text holds a C0/C1 control character (newline, tab, NUL, ...).
bool has_control_characters(std::string_view utf8);

// True if the text is empty or only ASCII white space.
bool is_blank(std::string_view text);

}  // namespace petstore::text
