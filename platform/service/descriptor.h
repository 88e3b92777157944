#pragma once

#include <string_view>
#include <vector>

#include "config/service_config.h"
#include "service/serve.h"

namespace petstore::service {

// A service as the rest of the tree knows it: each services/<name>/ defines
// `const service::Descriptor& <name>::descriptor()`, and nothing outside
// the folder names the service. Its main serves it (serve(descriptor())),
// and the build lists every service's descriptor from
// services/services.txt (all_services()) for the tools and the tests.
struct Descriptor {
  std::string_view name;
  int default_port = 0;  // HTTP_PORT overrides it
  Factory make;          // the service, built from the environment; opens no connection
  // Sets the service's own defaults where they differ from ServiceConfig's
  // (the environment overrides both); nullptr for none. A function, not a
  // ServiceConfig member: GCC 12 at -O2 warns maybe-uninitialized on an
  // aggregate's ServiceConfig initialized empty.
  void (*defaults)(config::ServiceConfig&) = nullptr;

  // The service's settings: ServiceConfig's, its own defaults over them,
  // and the environment over both.
  [[nodiscard]] config::ServiceConfig configuration(const config::Env& env) const;
};

// A service's whole main: reads its configuration, builds it with `make`,
// starts it and serves HTTP until SIGINT/SIGTERM. Returns the exit code.
// It listens once the read model is ready, or after READY_BEFORE_LISTEN_MS
// (5 s) at the latest: nginx cannot probe /readyz, so a replica that
// listened at once would answer 503 read_model_rebuilding to the requests
// nginx sends it in its first tenth of a second, while its sibling serves;
// a replica that is still rebuilding after the grace listens anyway, so
// /readyz reports the rebuild's progress.
// On SIGINT/SIGTERM it stops accepting, waits for the requests in progress
// (at most STOP_HANDLERS_WAIT_MS, 30 s), resigns the service's groups, ends
// the connections left (idle keep-alive ones; http::Server::end_connections)
// and returns once they have closed.
int serve(const Descriptor& service);

// Every service of services/services.txt, in its order (made by the build:
// cmake/Services.cmake).
const std::vector<const Descriptor*>& all_services();

}  // namespace petstore::service
