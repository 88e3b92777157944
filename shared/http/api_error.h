#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace petstore {

// The one error shape the API returns: {code, message, status}. Every failure a
// client can see is an ApiError, so the README's code table is the complete list
// of what `code` can hold (see error/codes.h).
struct ApiError {
  int status = 500;
  std::string code;
  std::string message;
  // Seconds a client should wait before retrying (503, 429, some 409s).
  std::optional<int> retry_after_seconds;
  // Extra response headers the error needs, such as Allow on a 405.
  std::vector<std::pair<std::string, std::string>> headers;

  ApiError(int http_status, std::string error_code, std::string text)
      : status(http_status), code(std::move(error_code)), message(std::move(text)) {}

  ApiError&& retry_after(int seconds) && {
    retry_after_seconds = seconds;
    return std::move(*this);
  }

  [[nodiscard]] std::string to_json() const;
};

// Thrown from deep inside a request when the request cannot go on; the HTTP
// layer turns it into the response, so handlers need no error plumbing.
class ApiException : public std::exception {
 public:
  explicit ApiException(ApiError error) : error_(std::move(error)) {}
  [[nodiscard]] const ApiError& error() const noexcept { return error_; }
  [[nodiscard]] const char* what() const noexcept override { return error_.message.c_str(); }

 private:
  ApiError error_;
};

}  // namespace petstore
