#include "apikeys/admin_token.h"

#include <algorithm>
#include <string_view>

#include <openssl/crypto.h>

#include "error/codes.h"
#include "http/api_error.h"
#include "text/ascii.h"
#include "text/digest.h"

namespace petstore::apikeys {

AdminToken::AdminToken(const std::optional<std::string>& token) {
  // An empty token is none (config::ServiceConfig refuses one shorter than
  // 16 characters anyway): nothing presented may match it.
  if (token && !token->empty()) {
    digest_ = text::sha256_hex(*token);
  }
}

AdminToken::Check AdminToken::check(const httplib::Request& req) const {
  if (!digest_) {
    return Check::Disabled;
  }
  const auto sent = req.get_header_value_count("Authorization");
  if (sent == 0) {
    return Check::Missing;
  }
  // Two tokens are none: which one counts would be a guess.
  if (sent > 1) {
    return Check::Invalid;
  }
  const auto auth = req.get_header_value("Authorization");
  if (auth.empty()) {
    return Check::Missing;
  }
  // "Bearer", spaces, the token (RFC 6750, section 2.1); the scheme's name
  // is compared without regard to case (RFC 9110, section 11.1).
  const std::string_view value(auth);
  const auto space = value.find(' ');
  if (space == std::string_view::npos || !text::equals_ignoring_case(value.substr(0, space), "bearer")) {
    return Check::Invalid;
  }
  const auto token = value.substr(std::min(value.find_first_not_of(' ', space), value.size()));
  if (token.empty()) {
    return Check::Invalid;
  }
  // Digests, not the strings: equal lengths, and CRYPTO_memcmp takes the
  // same time wherever they differ.
  const auto presented = text::sha256_hex(token);
  return CRYPTO_memcmp(presented.data(), digest_->data(), digest_->size()) == 0 ? Check::Valid
                                                                                : Check::Invalid;
}

void AdminToken::require(const httplib::Request& req) const {
  switch (check(req)) {
    case Check::Valid:
      return;
    case Check::Disabled:
      throw ApiException(
          ApiError(403, codes::kAdminApiDisabled,
                   "the admin API is disabled: this replica was started without PETSTORE_ADMIN_TOKEN"));
    case Check::Missing: {
      ApiError e(401, codes::kAdminTokenMissing, "send the admin token as Authorization: Bearer <token>");
      e.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"petstore-admin\"");
      throw ApiException(std::move(e));
    }
    case Check::Invalid:
      throw ApiException(ApiError(403, codes::kAdminTokenInvalid, "the admin token is not valid"));
  }
}

}  // namespace petstore::apikeys
