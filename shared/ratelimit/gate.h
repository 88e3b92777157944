#pragma once

#include <string>

#include <httplib.h>

#include "http/router.h"
#include "ratelimit/ban_cache.h"
#include "ratelimit/limiter.h"

namespace petstore::ratelimit {

// The API's front door, run before routing on every request: identifies the
// caller by X-API-Key, spends one request of its budget (one Redis round
// trip; none while this replica knows the caller is banned), puts the budget
// in the response headers, and answers 401, 429 or 503 itself when the
// request may not go on. A request without a usable key counts against the
// caller's address, with the Free plan's limits, before it gets its 401.
// /healthz and /admin/ are not limited.
class Gate {
 public:
  Gate(Limiter& limiter, BanCache& bans, Limits anonymous);

  // Before routing: calls `next(true)` when the gate answered the request
  // itself, `next(false)` to let it through. Never waits: a ban known here
  // answers at once, anything else continues on the limiter's Redis thread
  // when the verdict comes back.
  void admit(const http::ExchangePtr& ex, http::Next next);

  // The address a request counts against when it has no usable key: the
  // last X-Forwarded-For entry (the one the entry point added), else the peer.
  static std::string client_address(const httplib::Request& req);
  static bool exempt(const std::string& path);

 private:
  // Sets the budget headers and, unless admitted, answers 429: true if it did.
  static bool render(const Decision& d, httplib::Response& res);
  // render() for a verdict from Redis, remembering a ban it announces.
  bool answer(const Subject& subject, const Decision& d, httplib::Response& res);
  // The path of a request without a usable key: counted against its address.
  void refuse_unauthenticated(const http::ExchangePtr& ex, Counters::Verdict why, http::Next next);
  // A failed check: 503 when Redis is unavailable, else the error it was.
  static void failed(const std::exception_ptr& failure, httplib::Response& res);

  Limiter& limiter_;
  BanCache& bans_;
  Limits anonymous_;
};

}  // namespace petstore::ratelimit
