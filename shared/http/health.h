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

}  // namespace petstore::http
