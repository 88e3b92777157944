#include "http/health.h"

#include <memory>
#include <mutex>

#include "error/codes.h"
#include "http/api_error.h"
#include "http/response.h"
#include "json/writer.h"

namespace petstore::http {
namespace {

struct Report {
  std::string body;     // {"checks": {...}, "status": ...}
  std::string checks;   // the {...} of "checks"
  std::string failing;  // names of failing checks, empty when healthy
};

Report run_checks(const std::vector<HealthCheck>& checks) {
  json::Writer c;
  c.begin_object();
  std::string failing;
  for (const auto& check : checks) {
    bool ok = false;
    try {
      ok = check.healthy();
    } catch (const std::exception&) {
      ok = false;
    }
    c.field(check.name, ok ? "ok" : "unavailable");
    if (!ok) {
      failing += failing.empty() ? check.name : ", " + check.name;
    }
  }
  c.end_object();
  auto checks_json = c.finish();
  json::Writer w;
  w.begin_object().key("checks").raw(checks_json).field("status", failing.empty() ? "ok" : "unavailable");
  w.end_object();
  return {w.finish(), std::move(checks_json), failing};
}

// The last report and when it was made. One caller at a time refreshes it;
// the others wait for that refresh rather than starting their own.
class CachedHealth {
 public:
  CachedHealth(std::vector<HealthCheck> checks, std::chrono::milliseconds ttl)
      : checks_(std::move(checks)), ttl_(ttl) {}

  Report get() {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (!made_ || now - made_at_ >= ttl_) {
      report_ = run_checks(checks_);
      made_at_ = std::chrono::steady_clock::now();
      made_ = true;
    }
    return report_;
  }

 private:
  std::vector<HealthCheck> checks_;
  std::chrono::milliseconds ttl_;
  std::mutex mutex_;
  bool made_ = false;
  std::chrono::steady_clock::time_point made_at_;
  Report report_;
};

void add_liveness(Router& router, const std::shared_ptr<CachedHealth>& health) {
  router.add("GET", "/healthz", [health](const httplib::Request&, httplib::Response& res, const PathParams&) {
    const auto report = health->get();
    if (!report.failing.empty()) {
      ApiError e(503, codes::kDependencyUnavailable, "unavailable: " + report.failing);
      e.retry_after_seconds = 1;
      send_error(res, e);
      return;
    }
    send_json(res, 200, report.body);
  });
}

}  // namespace

void add_health_route(Router& router, std::vector<HealthCheck> checks, std::chrono::milliseconds cache_for) {
  add_liveness(router, std::make_shared<CachedHealth>(std::move(checks), cache_for));
}

void add_health_routes(Router& router, std::vector<HealthCheck> checks, ReadinessProbe readiness,
                       std::chrono::milliseconds cache_for) {
  auto health = std::make_shared<CachedHealth>(std::move(checks), cache_for);
  add_liveness(router, health);
  router.add("GET", "/readyz",
             [health, readiness = std::move(readiness)](const httplib::Request&, httplib::Response& res,
                                                        const PathParams&) {
               const auto report = health->get();
               bool ready = report.failing.empty() && readiness.ready();
               json::Writer writers;
               writers.begin_object();
               for (const auto& w : readiness.writers) {
                 const bool settled = w.healthy();
                 writers.field(w.name, settled ? "settled" : "moving");
                 ready = ready && settled;
               }
               writers.end_object();
               json::Writer w;
               w.begin_object()
                   .field("status", ready ? "ready" : "not_ready")
                   .key("checks")
                   .raw(report.checks)
                   .key("readModel")
                   .raw(readiness.detail());
               if (!readiness.writers.empty()) {
                 w.key("writers").raw(writers.finish());
               }
               w.end_object();
               if (!ready) {
                 res.set_header("Retry-After", "1");
               }
               send_json(res, ready ? 200 : 503, w.finish());
             });
}

}  // namespace petstore::http
