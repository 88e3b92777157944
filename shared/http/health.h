#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "http/router.h"

namespace petstore::http {

struct HealthCheck {
  std::string name;
  std::function<bool()> healthy;
};

// GET /healthz: 200 when every dependency answers, else 503 with the failing
// ones named, so an entry point or orchestrator can take a replica out. The
// checks run at most once per `cache_for`, whoever asks and however often:
// a flood of health checks costs Redis and Kafka nothing more.
void add_health_route(Router& router, std::vector<HealthCheck> checks,
                      std::chrono::milliseconds cache_for = std::chrono::milliseconds(1000));

// What readiness adds to health: whether the replica's state may be served
// now, and a JSON object saying why or how far (the read model's rebuild).
struct ReadinessProbe {
  std::function<bool()> ready;
  std::function<std::string()> detail;
  // Further conditions, asked on every request and shown by name under
  // "writers" (a single writer holding its share of its topic).
  std::vector<HealthCheck> writers;
};

// GET /healthz as above (liveness: the replica and its dependencies answer)
// and GET /readyz (readiness: that, and `readiness.ready()`), which answers
// 200 or 503 with Retry-After, both with {"status", "checks", "readModel"}
// (and "writers" when there are any)
// so an operator sees a rebuild's progress. Both share one cached run of
// the checks; readiness itself is asked on every request.
void add_health_routes(Router& router, std::vector<HealthCheck> checks, ReadinessProbe readiness,
                       std::chrono::milliseconds cache_for = std::chrono::milliseconds(1000));

}  // namespace petstore::http
