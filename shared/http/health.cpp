#include "http/health.h"

#include <memory>
#include <mutex>

#include "error/api_error.h"
#include "error/codes.h"
#include "http/response.h"
#include "json/writer.h"

namespace petstore::http {
namespace {

struct Report {
  std::string body;     // {"checks": {...}, "status": ...}
  std::string failing;  // names of failing checks, empty when healthy
};

Report run_checks(const std::vector<HealthCheck>& checks) {
  json::Writer w;
  w.begin_object().key("checks").begin_object();
  std::string failing;
  for (const auto& check : checks) {
    bool ok = false;
    try {
      ok = check.healthy();
    } catch (const std::exception&) {
      ok = false;
    }
    w.field(check.name, ok ? "ok" : "unavailable");
    if (!ok) {
      failing += failing.empty() ? check.name : ", " + check.name;
    }
  }
  w.end_object().field("status", failing.empty() ? "ok" : "unavailable").end_object();
  return {w.finish(), failing};
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

}  // namespace

void add_health_route(Router& router, std::vector<HealthCheck> checks, std::chrono::milliseconds cache_for) {
  auto health = std::make_shared<CachedHealth>(std::move(checks), cache_for);
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

}  // namespace petstore::http
