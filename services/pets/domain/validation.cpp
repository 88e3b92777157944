#include "pets/domain/validation.h"

#include "pets/domain/errors.h"
#include "text/utf8.h"

namespace petstore::pets {
namespace {

[[noreturn]] void invalid(const std::string& message) {
  throw DomainError(DomainError::Kind::Invalid, "invalid_value", message);
}

}  // namespace

void validate_name(const char* field, const std::string& name) {
  const auto n = text::code_points(name);
  if (text::is_blank(name)) {
    invalid(std::string("field '") + field + "' must not be blank");
  }
  if (n > kMaxNameLength) {
    invalid(std::string("field '") + field + "' must be at most " + std::to_string(kMaxNameLength) +
            " characters, got " + std::to_string(n));
  }
  if (text::has_control_characters(name)) {
    invalid(std::string("field '") + field + "' must not contain control characters");
  }
}

void validate_description(const std::optional<std::string>& description) {
  if (!description) {
    return;
  }
  const auto n = text::code_points(*description);
  if (n > kMaxDescriptionLength) {
    invalid("field 'description' must be at most " + std::to_string(kMaxDescriptionLength) +
            " characters, got " + std::to_string(n));
  }
  for (const char c : *description) {
    const auto b = static_cast<unsigned char>(c);
    if ((b < 0x20 && c != '\n' && c != '\t') || b == 0x7F) {
      invalid("field 'description' must not contain control characters other than newline and tab");
    }
  }
}

}  // namespace petstore::pets
