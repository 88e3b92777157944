#include "ratelimit/gate.h"

#include <spdlog/spdlog.h>

#include "apikeys/api_key.h"
#include "error/codes.h"
#include "http/response.h"
#include "redis/connection.h"

namespace petstore::ratelimit {
namespace {

using Verdict = Counters::Verdict;

void set_budget_headers(httplib::Response& res, const Decision& d) {
  res.set_header("X-RateLimit-Limit", std::to_string(d.limit));
  res.set_header("X-RateLimit-Remaining", std::to_string(d.remaining));
  res.set_header("X-RateLimit-Reset", std::to_string(d.reset_unix));
  res.set_header("RateLimit-Policy", d.policy);
  res.set_header("RateLimit", d.state);
}

ApiError over_budget(const Decision& d) {
  if (d.verdict == Verdict::Banned) {
    return ApiError(429, codes::kRateLimitBanned,
                    "too many requests after being told to wait: banned for " +
                        std::to_string(d.retry_after) + " s; honour Retry-After")
        .retry_after(static_cast<int>(d.retry_after));
  }
  return ApiError(429, codes::kRateLimited,
                  "rate limit exceeded; retry after " + std::to_string(d.retry_after) + " s")
      .retry_after(static_cast<int>(d.retry_after));
}

ApiError unauthenticated(Verdict why, bool key_sent) {
  ApiError e = !key_sent ? ApiError(401, codes::kApiKeyMissing, "send your API key in the X-API-Key header")
               : why == Verdict::Revoked
                   ? ApiError(401, codes::kApiKeyRevoked, "this API key has been revoked")
                   : ApiError(401, codes::kApiKeyInvalid, "this API key is not valid");
  e.headers.emplace_back("WWW-Authenticate", "ApiKey header=\"X-API-Key\"");
  return e;
}

}  // namespace

Gate::Gate(Limiter& limiter, BanCache& bans, Limits anonymous, Limits admin_failures,
           const apikeys::AdminToken& admin_token, http::TrustedProxies trusted)
    : limiter_(limiter),
      bans_(bans),
      anonymous_(anonymous),
      admin_failures_(admin_failures),
      admin_token_(admin_token),
      trusted_(std::move(trusted)) {}

bool Gate::exempt(const std::string& path) {
  return path == "/healthz" || path.starts_with("/healthz/");
}

bool Gate::is_admin(const std::string& path) {
  return path == "/admin" || path.starts_with("/admin/");
}

bool Gate::render(const Decision& d, httplib::Response& res) {
  set_budget_headers(res, d);
  if (d.verdict == Verdict::Admitted) {
    return false;
  }
  http::send_error(res, over_budget(d));
  return true;
}

bool Gate::answer(const Subject& subject, const Decision& d, httplib::Response& res) {
  // Only Redis' word starts a ban here; a ban answered from this memory is
  // not remembered again (that would shift its end by each lookup's rounding).
  if (d.verdict == Verdict::Banned) {
    bans_.remember(subject.tag, d);
  }
  return render(d, res);
}

std::optional<Decision> Gate::checked(const Subject& subject, const Limits& limits, httplib::Response& res) {
  try {
    return limiter_.check(subject, limits);
  } catch (const redis::Unavailable& e) {
    // Fail closed: every route reads or writes Redis, so a request admitted
    // without the limiter could not be served either; answer at once instead.
    spdlog::warn("rate limiter: redis unavailable: {}", e.what());
    http::send_error(res, ApiError(503, codes::kRateLimiterUnavailable,
                                   "the rate limiter cannot reach its store; retry later")
                              .retry_after(1));
  } catch (...) {
    http::send_error(res, http::error_from(std::current_exception()));
  }
  return std::nullopt;
}

bool Gate::charge_address(const std::string& tag, const Limits& limits, const httplib::Request&,
                          httplib::Response& res, const std::function<void(httplib::Response&)>& otherwise) {
  const Subject address{tag, ""};
  if (const auto ban = bans_.find(address.tag)) {
    render(*ban, res);
    return true;
  }
  const auto d = checked(address, limits, res);
  if (!d) {
    return true;
  }
  if (answer(address, *d, res)) {
    return true;
  }
  if (otherwise) {
    otherwise(res);
    return true;
  }
  return false;
}

bool Gate::admit(const httplib::Request& req, httplib::Response& res) {
  if (exempt(req.path)) {
    return false;
  }
  if (is_admin(req.path)) {
    // Operators with the token are never limited; everyone else pays from
    // a small budget per address, and the route then refuses them.
    if (admin_token_.check(req) == apikeys::AdminToken::Check::Valid) {
      return false;
    }
    return charge_address("admin:" + http::client_address(req, trusted_), admin_failures_, req, res, nullptr);
  }
  const auto refuse = [&req](Verdict why) {
    return [&req, why](httplib::Response& r) {
      http::send_error(r, unauthenticated(why, req.has_header("X-API-Key")));
    };
  };
  const auto identity = apikeys::identify(req.get_header_value("X-API-Key"));
  if (!identity) {
    // The caller's address pays for the attempt, so guessing keys is
    // limited (and banned) like any other traffic.
    return charge_address("addr:" + http::client_address(req, trusted_), anonymous_, req, res,
                          refuse(Verdict::Unknown));
  }
  const Subject key{identity->id, identity->digest};
  if (const auto ban = bans_.find(key.tag)) {
    return render(*ban, res);
  }
  const auto d = checked(key, anonymous_, res);
  if (!d) {
    return true;
  }
  if (d->verdict == Verdict::Unknown || d->verdict == Verdict::Revoked) {
    return charge_address("addr:" + http::client_address(req, trusted_), anonymous_, req, res,
                          refuse(d->verdict));
  }
  return answer(key, *d, res);
}

}  // namespace petstore::ratelimit
