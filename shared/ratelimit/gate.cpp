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

Gate::Gate(Limiter& limiter, BanCache& bans, Limits anonymous)
    : limiter_(limiter), bans_(bans), anonymous_(anonymous) {}

bool Gate::exempt(const std::string& path) {
  return path == "/healthz" || path.starts_with("/healthz/") || path.starts_with("/admin/") ||
         path == "/admin";
}

std::string Gate::client_address(const httplib::Request& req) {
  const auto forwarded = req.get_header_value("X-Forwarded-For");
  if (forwarded.empty()) {
    return req.remote_addr;
  }
  const auto comma = forwarded.rfind(',');
  auto last = comma == std::string::npos ? forwarded : forwarded.substr(comma + 1);
  const auto start = last.find_first_not_of(' ');
  return start == std::string::npos ? req.remote_addr : last.substr(start);
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

void Gate::failed(const std::exception_ptr& failure, httplib::Response& res) {
  try {
    std::rethrow_exception(failure);
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
}

void Gate::refuse_unauthenticated(const http::ExchangePtr& ex, Verdict why, http::Next next) {
  // The caller's address pays for the attempt, so guessing keys is limited
  // (and banned) like any other traffic.
  const auto unauthorized = [ex, why] {
    http::send_error(ex->res, unauthenticated(why, ex->req.has_header("X-API-Key")));
  };
  Subject address{"addr:" + client_address(ex->req), ""};
  if (const auto ban = bans_.find(address.tag)) {
    if (!render(*ban, ex->res)) {
      unauthorized();
    }
    next(true);
    return;
  }
  limiter_.check_async(address, anonymous_,
                       [this, ex, address, unauthorized, next = std::move(next)](const Limiter::Checked& c) {
                         if (c.failure) {
                           failed(c.failure, ex->res);
                         } else if (!answer(address, c.decision, ex->res)) {
                           unauthorized();
                         }
                         next(true);
                       });
}

void Gate::admit(const http::ExchangePtr& ex, http::Next next) {
  if (exempt(ex->req.path)) {
    next(false);
    return;
  }
  const auto identity = apikeys::identify(ex->req.get_header_value("X-API-Key"));
  if (!identity) {
    refuse_unauthenticated(ex, Verdict::Unknown, std::move(next));
    return;
  }
  Subject key{identity->id, identity->digest};
  if (const auto ban = bans_.find(key.tag)) {
    next(render(*ban, ex->res));
    return;
  }
  limiter_.check_async(key, anonymous_, [this, ex, key, next = std::move(next)](const Limiter::Checked& c) {
    if (c.failure) {
      failed(c.failure, ex->res);
      next(true);
    } else if (c.decision.verdict == Verdict::Unknown || c.decision.verdict == Verdict::Revoked) {
      refuse_unauthenticated(ex, c.decision.verdict, next);
    } else {
      next(answer(key, c.decision, ex->res));
    }
  });
}

}  // namespace petstore::ratelimit
