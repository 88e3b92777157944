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

// A service's whole main (service::serve(const Descriptor&) calls it): reads
// the configuration, the service's own `defaults` where they differ from
// ServiceConfig's and the environment over both, builds the service with
// `make`, starts it and serves HTTP until SIGINT/SIGTERM. Returns the exit code.
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
int serve(const std::string& name, int default_port, const Factory& make,
          const config::ServiceConfig& defaults);

}  // namespace petstore::service
