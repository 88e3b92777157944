#include "apikeys/admin_token.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "http/api_error.h"

namespace petstore::apikeys {
namespace {

constexpr const char* kToken = "local-admin-token-0123456789";

httplib::Request with_authorization(const std::optional<std::string>& value) {
  httplib::Request req;
  if (value) {
    req.headers.emplace("Authorization", *value);
  }
  return req;
}

AdminToken::Check check(const AdminToken& token, const std::optional<std::string>& authorization) {
  return token.check(with_authorization(authorization));
}

TEST(AdminToken, TheConfiguredTokenAsABearerTokenIsValid) {
  const AdminToken token{std::string(kToken)};
  EXPECT_EQ(check(token, std::string("Bearer ") + kToken), AdminToken::Check::Valid);
  // The scheme's name in any case (RFC 9110, section 11.1), and more than
  // one space before the token (RFC 6750's 1*SP).
  EXPECT_EQ(check(token, std::string("bearer ") + kToken), AdminToken::Check::Valid);
  EXPECT_EQ(check(token, std::string("BEARER   ") + kToken), AdminToken::Check::Valid);
  EXPECT_NO_THROW(token.require(with_authorization(std::string("Bearer ") + kToken)));
}

TEST(AdminToken, NoAuthorizationIsMissingAndAsksForTheBearerScheme) {
  const AdminToken token{std::string(kToken)};
  EXPECT_EQ(check(token, std::nullopt), AdminToken::Check::Missing);
  try {
    token.require(with_authorization(std::nullopt));
    FAIL() << "no token accepted";
  } catch (const ApiException& e) {
    EXPECT_EQ(e.error().status, 401);
    EXPECT_EQ(e.error().code, "admin_token_missing");
    ASSERT_EQ(e.error().headers.size(), 1U);
    EXPECT_EQ(e.error().headers[0].first, "WWW-Authenticate");
    EXPECT_EQ(e.error().headers[0].second, "Bearer realm=\"petstore-admin\"");
  }
}

TEST(AdminToken, AnythingButTheTokenAfterBearerIsInvalid) {
  const AdminToken token{std::string(kToken)};
  for (const std::string& presented : {
           std::string("Bearer wrong"), std::string("Bearer ") + kToken + "x",
           std::string("Bearer ") + std::string(kToken).substr(1),
           std::string(kToken),               // no scheme
           std::string("Basic ") + kToken,    // another scheme
           std::string("Bearer") + kToken,    // no space
           std::string("Bearer"),             // no token
           std::string("Bearer "),            // an empty one
           std::string("Bearer  "),           // spaces only
           std::string("Bearerx ") + kToken,  // not the scheme's name
           std::string(" Bearer ") + kToken,  // something before it
       }) {
    EXPECT_EQ(check(token, presented), AdminToken::Check::Invalid) << presented;
  }
  try {
    token.require(with_authorization("Bearer wrong"));
    FAIL() << "a wrong token accepted";
  } catch (const ApiException& e) {
    EXPECT_EQ(e.error().status, 403);
    EXPECT_EQ(e.error().code, "admin_token_invalid");
  }
}

TEST(AdminToken, TwoAuthorizationHeadersAreInvalidEvenWithTheTokenAmongThem) {
  const AdminToken token{std::string(kToken)};
  auto req = with_authorization(std::string("Bearer ") + kToken);
  req.headers.emplace("Authorization", "Bearer wrong");
  EXPECT_EQ(token.check(req), AdminToken::Check::Invalid);
  req = with_authorization(std::string("Bearer ") + kToken);
  req.headers.emplace("Authorization", std::string("Bearer ") + kToken);
  EXPECT_EQ(token.check(req), AdminToken::Check::Invalid);
}

TEST(AdminToken, WithoutAConfiguredTokenTheAdminApiIsDisabled) {
  // Unset, or set to nothing: an empty token would otherwise match an empty
  // one presented.
  for (const auto& configured : {std::optional<std::string>{}, std::optional<std::string>{""}}) {
    const AdminToken token{configured};
    for (const auto& presented : {std::optional<std::string>{}, std::optional<std::string>{"Bearer "},
                                  std::optional<std::string>{"Basic x"}, std::optional<std::string>{""}}) {
      EXPECT_EQ(check(token, presented), AdminToken::Check::Disabled);
    }
    try {
      token.require(with_authorization("Bearer "));
      FAIL() << "the disabled admin API accepted a request";
    } catch (const ApiException& e) {
      EXPECT_EQ(e.error().status, 403);
      EXPECT_EQ(e.error().code, "admin_api_disabled");
    }
  }
}

}  // namespace
}  // namespace petstore::apikeys
