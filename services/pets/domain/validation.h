#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace petstore::pets {

// Limits the spec leaves open, decided here and documented in the README and
// the OpenAPI document. Lengths count Unicode code points.
inline constexpr size_t kMaxNameLength = 100;
inline constexpr size_t kMaxDescriptionLength = 1000;

// A name: 1..100 code points, not blank, no control characters.
void validate_name(const char* field, const std::string& name);
// A description: 0..1000 code points; newlines and tabs allowed.
void validate_description(const std::optional<std::string>& description);

}  // namespace petstore::pets
