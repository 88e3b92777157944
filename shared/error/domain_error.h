#pragma once

#include <stdexcept>
#include <string>

namespace petstore {

// A command the domain refuses. Domains stay free of HTTP: they say what kind
// of refusal it is and the HTTP layer (http::error_from) picks the status.
class DomainError : public std::runtime_error {
 public:
  enum class Kind {
    Invalid,        // 400: the request itself is wrong
    NotFound,       // 404: the addressed resource does not exist
    Conflict,       // 409: not allowed in the resource's current state
    Unprocessable,  // 422: well-formed, but refers to something that does not exist
    NotYet,         // 409 with Retry-After: allowed once what is under way ends
  };
  DomainError(Kind kind, std::string code, const std::string& message)
      : std::runtime_error(message), kind_(kind), code_(std::move(code)) {}
  [[nodiscard]] Kind kind() const noexcept { return kind_; }
  [[nodiscard]] const std::string& code() const noexcept { return code_; }

 private:
  Kind kind_;
  std::string code_;
};

}  // namespace petstore
