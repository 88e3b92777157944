#include "text/ascii.h"

#include <algorithm>

namespace petstore::text {

bool equals_ignoring_case(std::string_view text, std::string_view lower) {
  // Not std::tolower: it follows the C locale, and these names are ASCII.
  return std::ranges::equal(text, lower,
                            [](char a, char b) { return (a >= 'A' && a <= 'Z' ? a + 32 : a) == b; });
}

}  // namespace petstore::text
