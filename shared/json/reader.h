#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

namespace petstore::json {

// A body the reader refuses. `code` is one of the API's error codes
// (error/codes.h: malformed_json, missing_field, invalid_type,
// invalid_value, unknown_field); the HTTP edge (http::error_from) answers
// 400 with it.
class Invalid : public std::runtime_error {
 public:
  Invalid(const char* code, const std::string& message) : std::runtime_error(message), code_(code) {}
  [[nodiscard]] const char* code() const noexcept { return code_; }

 private:
  const char* code_;
};

// Parses a request body that must be one JSON object in valid UTF-8. Throws
// Invalid(malformed_json) with the parser's position otherwise.
rapidjson::Document parse_object(std::string_view body);

// Reads the members of one JSON object with typed, named errors (Invalid:
// missing_field / invalid_type / invalid_value / unknown_field), and remembers
// which members were read so anything unexpected can be refused.
class ObjectReader {
 public:
  explicit ObjectReader(const rapidjson::Value& object);

  [[nodiscard]] std::optional<std::string> optional_string(const char* name);
  [[nodiscard]] std::string required_string(const char* name);
  [[nodiscard]] std::optional<std::int64_t> optional_int64(const char* name);
  [[nodiscard]] std::int64_t required_int64(const char* name);
  [[nodiscard]] std::optional<bool> optional_bool(const char* name);
  // A nested object (read it with its own ObjectReader), or nullptr if absent.
  [[nodiscard]] const rapidjson::Value* optional_object(const char* name);
  [[nodiscard]] bool has(const char* name) const;

  // Refuses any member that no accessor asked for.
  void reject_unknown() const;

 private:
  const rapidjson::Value* member(const char* name);

  const rapidjson::Value& object_;
  std::set<std::string, std::less<>> seen_;
};

}  // namespace petstore::json
