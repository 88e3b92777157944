#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

namespace petstore::json {

struct ParseFailure {
  std::string message;
  size_t offset = 0;
};

// Parses untrusted JSON text into `doc`; every JSON the services read from
// a client or from the log goes through here. What it adds to RapidJSON:
// - numbers never reach RapidJSON 1.1.0's own conversion, whose exponent
//   arithmetic overflows (CVE-2024-38517; Debian bookworm's 1.1.0+dfsg2-7.1
//   lacks the fix): the reader hands each number over as text
//   (kParseNumbersAsStringsFlag) and std::from_chars converts it. Integers
//   become Int64 or Uint64, anything else a Double; a magnitude beyond
//   double's range becomes +-infinity (0 when it is too small), which no
//   reader takes as a valid value;
// - every string and member name is well-formed UTF-8: RapidJSON validates
//   raw bytes, but turns the escape of a lone low surrogate (\udc00) into
//   bytes that are not, so those are refused here;
// - a NUL byte outside a string is refused (RapidJSON reads it as the end);
// - the parse is iterative, so nesting cannot exhaust the stack.
std::optional<ParseFailure> parse(std::string_view text, rapidjson::Document& doc);

}  // namespace petstore::json
