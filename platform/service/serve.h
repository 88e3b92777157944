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
  // Whether the read model is a whole fold of the log (projection::Readiness).
  [[nodiscard]] virtual bool ready() const = 0;
  // Hands the replica's share of every group to the other replicas
  // (service::Platform::resign); serve() calls it once a stopping replica
  // has answered the requests in progress.
  virtual void resign() = 0;
};

using Factory = std::function<std::unique_ptr<Service>(const config::Env&, const config::ServiceConfig&)>;

}  // namespace petstore::service
