#pragma once

#include <string_view>

namespace petstore::text {

// True if `text` is `lower` but for the case of ASCII letters; `lower` is
// given in lowercase. For the names the protocols compare without regard to
// case: header names, media types, authentication schemes (RFC 9110,
// sections 5.1, 8.3.1 and 11.1).
bool equals_ignoring_case(std::string_view text, std::string_view lower);

// A token of HTTP (RFC 9110, section 5.6.2): one or more tchar, the
// characters a method or a field name is made of.
bool is_tchar(char c);
bool is_token(std::string_view text);

// `text` without the spaces and tabs around it: HTTP's optional whitespace
// (OWS, RFC 9110, section 5.6.3) around a field value or a list element.
std::string_view trim_ows(std::string_view text);

}  // namespace petstore::text
