#pragma once

#include <string_view>

namespace petstore::text {

// True if `text` is `lower` but for the case of ASCII letters; `lower` is
// given in lowercase. For the names the protocols compare without regard to
// case: header names, media types, authentication schemes (RFC 9110,
// sections 5.1, 8.3.1 and 11.1).
bool equals_ignoring_case(std::string_view text, std::string_view lower);

}  // namespace petstore::text
