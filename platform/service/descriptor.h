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
  int default_port = 0;            // HTTP_PORT overrides it
  Factory make;                    // the service, built from the environment; opens no connection
  config::ServiceConfig defaults;  // where the service's settings differ from ServiceConfig's
};

// A service's whole main (serve() with the descriptor's parts).
int serve(const Descriptor& service);

// Every service of services/services.txt, in its order (made by the build:
// cmake/Services.cmake).
const std::vector<const Descriptor*>& all_services();

}  // namespace petstore::service
