#pragma once

#include <functional>
#include <memory>
#include <string>

#include "config/env.h"
#include "config/service_config.h"
#include "http/router.h"

namespace petstore::service {

// What every service's composition root offers to main.
class Service {
 public:
  virtual ~Service() = default;
  virtual void start() = 0;
  [[nodiscard]] virtual const http::Router& router() const = 0;
};

using Factory = std::function<std::unique_ptr<Service>(const config::Env&, const config::ServiceConfig&)>;

// A service's whole main: reads the configuration, builds the service with
// `make`, starts it and serves HTTP until SIGINT/SIGTERM. Returns the exit code.
int serve(const std::string& name, int default_port, const Factory& make);

}  // namespace petstore::service
