#pragma once

#include <map>
#include <set>
#include <string>

#include "config/service_config.h"
#include "service/serve.h"

namespace petstore::contract {

using Operations = std::set<std::string>;  // "GET /pets/{petId}"

// Each service's route table: route_tables/<service>.cpp, one a service
// of services/services.txt, registers its own with a RouteTable, which
// links itself into a list at start (no allocation, so nothing to throw).
class RouteTable {
 public:
  using OperationsOf = Operations (*)();
  explicit RouteTable(OperationsOf of) noexcept : operations_(of), next_(first()) { first() = this; }
  [[nodiscard]] Operations operations() const { return operations_(); }
  [[nodiscard]] const RouteTable* next() const { return next_; }
  // The last registered; each names the one before it.
  static const RouteTable*& first() noexcept {
    static const RouteTable* last = nullptr;
    return last;
  }

 private:
  OperationsOf operations_;
  const RouteTable* next_;
};

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
