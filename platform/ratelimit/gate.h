#pragma once

#include <functional>
#include <string>

#include <httplib.h>

#include "apikeys/admin_token.h"
#include "http/client_address.h"
#include "http/router.h"
#include "ratelimit/ban_cache.h"
#include "ratelimit/limiter.h"

namespace petstore::ratelimit {

// The API's front door, run before routing on every request: identifies the
// caller by X-API-Key, spends one request of its budget (one Redis round
// trip; none while this replica knows the caller is banned), puts the budget
// in the response headers, and answers 401, 429 or 503 itself when the
// request may not go on. A request without a usable key counts against the
// caller's address (http::client_address), with the Free plan's limits,
// before it gets its 401. /healthz is not limited; the admin API is limited
// only for callers that fail its token check, on a budget of their own, so
// guessing the token is banned like any other abuse.
class Gate {
 public:
  // `registry_whole` says whether the key registry is a whole fold of the
  // keys topic (the read model's ready marker exists); asked only when a
  // key is unknown.
  Gate(
      Limiter& limiter, BanCache& bans, Limits anonymous, Limits admin_failures,
      const apikeys::AdminToken& admin_token, http::TrustedProxies trusted,
      std::function<bool()> registry_whole = [] { return true; });

  // True when the gate answered the request itself.
  bool admit(const httplib::Request& req, httplib::Response& res);
  // The router's before-hook. With `may_defer`, a request with a well-formed
  // key that this replica does not know to be banned is let on its way with
  // the key's check still at Redis: the handler's reads then travel in the
  // same round trip, and the check's word (http::Deferred) decides the answer.
  // Only while Redis answers checks promptly (Limiter::answering): a hung
  // Redis is then refused within the limiter's deadline, as before. Every
  // other request is decided here, as admit() does.
  http::Admission start(const httplib::Request& req, httplib::Response& res, bool may_defer);

  static bool exempt(const std::string& path);
  static bool is_admin(const std::string& path);

 private:
  // Charges `subject` (an address) and answers: 429 when over its budget,
  // else `otherwise`'s Error if it has one. True when it answered.
  bool charge_address(const std::string& tag, const Limits& limits, const httplib::Request& req,
                      httplib::Response& res, const std::function<void(httplib::Response&)>& otherwise);
  // Sets the budget headers and, unless admitted, answers 429: true if it did.
  static bool render(const Decision& d, httplib::Response& res);
  // render() for a verdict from Redis, remembering a ban it announces.
  bool answer(const Subject& subject, const Decision& d, httplib::Response& res);
  // The check's decision, or the 503 (or other Error) when it failed: nullopt then.
  static std::optional<Decision> checked(const std::function<Decision()>& check, httplib::Response& res);
  // What a key's decision means for the request: true when it was answered
  // here (429, or 401 for an unknown or revoked key, charged to the address).
  bool key_verdict(const httplib::Request& req, const Subject& key, const Decision& d,
                   httplib::Response& res);

  class KeyCheck;

  Limiter& limiter_;
  BanCache& bans_;
  Limits anonymous_;
  Limits admin_failures_;
  const apikeys::AdminToken& admin_token_;
  http::TrustedProxies trusted_;
  std::function<bool()> registry_whole_;
};

}  // namespace petstore::ratelimit
