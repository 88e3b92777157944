#pragma once

#include <optional>
#include <string>

#include <httplib.h>

namespace petstore::apikeys {

// The admin API's bearer token (PETSTORE_ADMIN_TOKEN). Only its SHA-256
// digest is kept; presented tokens are hashed and compared in constant time,
// so timing tells nothing about the token. Without a configured token the
// admin API is disabled: there is no default outside the local scripts.
class AdminToken {
 public:
  explicit AdminToken(const std::optional<std::string>& token);

  enum class Check { Valid, Missing, Invalid, Disabled };
  [[nodiscard]] Check check(const httplib::Request& req) const;
  // Throws the Error for anything but Valid: 401 admin_token_missing,
  // 403 admin_token_invalid, 403 admin_api_disabled.
  void require(const httplib::Request& req) const;

 private:
  std::optional<std::string> digest_;
};

}  // namespace petstore::apikeys
