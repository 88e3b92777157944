#pragma once

#include <map>
#include <set>
#include <string>

#include "config/service_config.h"
#include "service/serve.h"

namespace petstore::contract {

using Operations = std::set<std::string>;  // "GET /pets/{petId}"

// One function per service, each compiled against only that service's headers
// (the services' headers share names such as service.h).
Operations pets_operations();
Operations orders_operations();
Operations inventory_operations();

// Constructing a service opens no connection; only its route table is used.
inline config::ServiceConfig offline_config(const std::string& service) {
  return config::ServiceConfig::from_env(
      config::Env(std::map<std::string, std::string>{{"KAFKA_BROKERS", "127.0.0.1:1"}}), service, 0);
}

inline Operations operations_of(const service::Service& s) {
  Operations ops;
  for (const auto& r : s.router().routes()) {
    ops.insert(r.method + " " + r.path);
  }
  return ops;
}

}  // namespace petstore::contract
