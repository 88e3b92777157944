#include "ratelimit/gate.h"

#include "apikeys/api_key.h"
#include "error/codes.h"
#include "http/request_log.h"
#include "http/response.h"
#include "log/log.h"
#include "metrics/registry.h"
#include "redis/connection.h"

namespace petstore::ratelimit {
namespace {

using Verdict = Counters::Verdict;

// petstore_ratelimit_decisions_total{plan,outcome}: every decision, by the
// key's plan ("anonymous" for a caller without a usable key, "admin" for
// the admin API's failed attempts) and its outcome.
void count(const Subject& subject, const Decision& d) {
  static auto& decisions =
      metrics::Registry::global().counter("petstore_ratelimit_decisions_total",
                                          "Rate-limit decisions, by plan and outcome.", {"plan", "outcome"});
  std::string plan;
  if (!subject.digest.empty()) {
    plan = d.plan.empty() ? "unknown" : d.plan;
  } else {
    plan = subject.tag.starts_with("admin:") ? "admin" : "anonymous";
  }
  const char* outcome = "admitted";
  switch (d.verdict) {
    case Verdict::Admitted:
      break;
    case Verdict::Denied:
      outcome = "limited";
      break;
    case Verdict::Banned:
      outcome = "banned";
      break;
    case Verdict::Unknown:
      outcome = "unknown_key";
      break;
    case Verdict::Revoked:
      outcome = "revoked_key";
      break;
  }
  decisions.with({plan, outcome}).inc();
}

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

ApiError unauthenticated(Verdict why, std::size_t keys_sent) {
  ApiError e =
      keys_sent == 0  ? ApiError(401, codes::kApiKeyMissing, "send your API key in the X-API-Key header")
      : keys_sent > 1 ? ApiError(401, codes::kApiKeyInvalid, "send one X-API-Key header, not several")
      : why == Verdict::Revoked ? ApiError(401, codes::kApiKeyRevoked, "this API key has been revoked")
                                : ApiError(401, codes::kApiKeyInvalid, "this API key is not valid");
  e.headers.emplace_back("WWW-Authenticate", "ApiKey header=\"X-API-Key\"");
  return e;
}

}  // namespace

Gate::Gate(Limiter& limiter, BanCache& bans, Limits anonymous, Limits admin_failures,
           const apikeys::AdminToken& admin_token, http::TrustedProxies trusted,
           std::function<bool()> registry_whole)
    : limiter_(limiter),
      bans_(bans),
      anonymous_(anonymous),
      admin_failures_(admin_failures),
      admin_token_(admin_token),
      trusted_(std::move(trusted)),
      registry_whole_(std::move(registry_whole)) {}

bool Gate::exempt(const std::string& path) {
  return path == "/healthz" || path.starts_with("/healthz/") || path == "/readyz" ||
         path.starts_with("/readyz/") || path == "/metrics";
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
  count(subject, d);
  // Only Redis' word starts a ban here; a ban answered from this memory is
  // not remembered again (that would shift its end by each lookup's rounding).
  if (d.verdict == Verdict::Banned) {
    bans_.remember(subject.tag, d);
  }
  return render(d, res);
}

std::optional<Decision> Gate::checked(const std::function<Decision()>& check, httplib::Response& res) {
  try {
    return check();
  } catch (const redis::Unavailable& e) {
    // Fail closed: every route reads or writes Redis, so a request admitted
    // without the limiter could not be served either; answer at once instead.
    static auto& errors = metrics::Registry::global()
                              .counter("petstore_ratelimit_redis_errors_total",
                                       "Rate-limit checks that Redis did not answer in time (503).")
                              .with({});
    errors.inc();
    log::warn("rate limiter: redis unavailable: {}", e.what());
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
    count(address, *ban);
    render(*ban, res);
    return true;
  }
  const auto d = checked([&] { return limiter_.check(address, limits); }, res);
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

// A key's check on its way while the handler runs. It is held (corked) until
// the handler first waits for a read, and goes to Redis in the same batch.
class Gate::KeyCheck final : public http::Deferred {
 public:
  KeyCheck(Gate& gate, const httplib::Request& req, Subject key,
           std::unique_ptr<redis::Multiplexer::Cork> cork, Limiter::Pending check)
      : gate_(gate), req_(req), key_(std::move(key)), cork_(std::move(cork)), check_(std::move(check)) {}

  bool refused(httplib::Response& word) override {
    cork_.reset();  // sends the check now if the handler read nothing
    const auto d = checked([this] { return check_.get(); }, word);
    return !d || gate_.key_verdict(req_, key_, *d, word);
  }

 private:
  Gate& gate_;
  const httplib::Request& req_;
  Subject key_;
  std::unique_ptr<redis::Multiplexer::Cork> cork_;
  Limiter::Pending check_;
};

bool Gate::key_verdict(const httplib::Request& req, const Subject& key, const Decision& d,
                       httplib::Response& res) {
  if (d.verdict == Verdict::Unknown && !registry_whole_()) {
    // Redis was wiped and this replica's readiness has not noticed yet (it
    // looks every interval): the key may be one the registry has not got
    // back from the log. Neither 401 nor a charge to the address, which
    // would have every client behind one proxy limited and banned after a
    // wipe: 503, as the readiness gate answers a moment later.
    http::send_error(res,
                     http::error_from(es::Error(es::Errc::NotReady, "the key registry is being rebuilt")));
    return true;
  }
  if (d.verdict == Verdict::Unknown || d.verdict == Verdict::Revoked) {
    count(key, d);
    return charge_address(
        "addr:" + http::client_address(req, trusted_), anonymous_, req, res,
        // One key was sent: start() identifies a key only then.
        [why = d.verdict](httplib::Response& r) { http::send_error(r, unauthenticated(why, 1)); });
  }
  return answer(key, d, res);
}

bool Gate::admit(const httplib::Request& req, httplib::Response& res) {
  return start(req, res, false).answered;
}

http::Admission Gate::start(const httplib::Request& req, httplib::Response& res, bool may_defer) {
  if (exempt(req.path)) {
    return {};
  }
  if (is_admin(req.path)) {
    // Operators with the token are never limited; everyone else pays from
    // a small budget per address, and the route then refuses them.
    if (admin_token_.check(req) == apikeys::AdminToken::Check::Valid) {
      return {};
    }
    return http::Admission::decided(
        charge_address("admin:" + http::client_address(req, trusted_), admin_failures_, req, res, nullptr));
  }
  // A key is read only from a request that sends exactly one: two could
  // name two callers, and whatever sits in front of a replica may take the
  // other one for the caller.
  const auto keys_sent = req.get_header_value_count("X-API-Key");
  const auto identity = keys_sent == 1 ? apikeys::identify(req.get_header_value("X-API-Key"))
                                       : std::optional<apikeys::KeyIdentity>();
  if (!identity) {
    // The caller's address pays for the attempt, so guessing keys is
    // limited (and banned) like any other traffic.
    return http::Admission::decided(charge_address("addr:" + http::client_address(req, trusted_), anonymous_,
                                                   req, res, [keys_sent](httplib::Response& r) {
                                                     http::send_error(
                                                         r, unauthenticated(Verdict::Unknown, keys_sent));
                                                   }));
  }
  http::request_log::note_api_key_id(identity->id);
  Subject key{identity->id, identity->digest};
  if (const auto ban = bans_.find(key.tag)) {
    count(key, *ban);
    return http::Admission::decided(render(*ban, res));
  }
  if (may_defer && limiter_.answering()) {
    auto cork = std::make_unique<redis::Multiplexer::Cork>(limiter_.multiplexer());
    auto check = limiter_.start(key, anonymous_);
    return {false, std::make_unique<KeyCheck>(*this, req, std::move(key), std::move(cork), std::move(check))};
  }
  const auto d = checked([&] { return limiter_.check(key, anonymous_); }, res);
  return http::Admission::decided(!d || key_verdict(req, key, *d, res));
}

}  // namespace petstore::ratelimit
