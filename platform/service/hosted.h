#pragma once

#include <utility>

#include "config/service_config.h"
#include "http/router.h"
#include "service/platform.h"
#include "service/serve.h"

namespace petstore::service {

// A service as main runs it: the Platform and the route table every
// service has, around `Parts`, the service's own components (its
// projection, writers, reactions and routes). What every service does
// alike is done here once: the platform's routes go behind the service's,
// the consumers stop before the parts they call are destroyed, and
// readiness and resigning are the platform's.
//
// `Parts` provides:
//   using Keys = …;                       its Redis keys, from the prefix
//   Parts(Platform&, http::Router&, …);   adds its routes and writers
//   void start(Platform&);                starts its consumers and writers
//
// Constructing it opens no connection, so tests can read the route table.
template <typename Parts>
class Hosted final : public Service {
 public:
  template <typename... Args>
  explicit Hosted(const config::ServiceConfig& cfg, Args&&... args)
      : platform_(cfg, typename Parts::Keys(cfg.prefix).space()),
        parts_(platform_, router_, std::forward<Args>(args)...) {
    platform_.add_platform_routes(router_);
  }
  ~Hosted() override { platform_.stop(); }
  Hosted(const Hosted&) = delete;
  Hosted& operator=(const Hosted&) = delete;

  void start() override { parts_.start(platform_); }
  [[nodiscard]] const http::Router& router() const override { return router_; }
  [[nodiscard]] bool ready() const override { return platform_.ready(); }
  void resign() override { platform_.resign(); }

 private:
  Platform platform_;
  http::Router router_;
  Parts parts_;
};

}  // namespace petstore::service
