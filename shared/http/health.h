#pragma once

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
// ones named, so an entry point or orchestrator can take a replica out.
void add_health_route(Router& router, std::vector<HealthCheck> checks);

}  // namespace petstore::http
