#include "http/health.h"

#include "error/api_error.h"
#include "error/codes.h"
#include "http/response.h"
#include "json/writer.h"

namespace petstore::http {

void add_health_route(Router& router, std::vector<HealthCheck> checks) {
  router.add("GET", "/healthz",
             [checks = std::move(checks)](const httplib::Request&, httplib::Response& res) {
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
               if (!failing.empty()) {
                 ApiError e(503, codes::kDependencyUnavailable, "unavailable: " + failing);
                 e.retry_after_seconds = 1;
                 send_error(res, e);
                 return;
               }
               send_json(res, 200, w.finish());
             });
}

}  // namespace petstore::http
