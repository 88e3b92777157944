#pragma once

#include <memory>

#include "app/category_commands.h"
#include "app/pet_commands.h"
#include "app/write_path.h"
#include "config/service_config.h"
#include "es/aggregate_lock.h"
#include "es/catch_up.h"
#include "es/event_log.h"
#include "es/idempotency.h"
#include "http/router.h"
#include "ids/id_generator.h"
#include "ids/worker_lease.h"
#include "kafka/producer.h"
#include "projection/pets_projection.h"
#include "projection/read_model.h"
#include "projection/runner.h"
#include "redis/pool.h"

namespace petstore::pets {

// The pets service's components, wired in one place. Constructing it opens
// no connection (clients connect lazily), so tests can inspect the route
// table; start() leases an id worker and starts the projection.
class PetsService {
 public:
  PetsService(const config::ServiceConfig& cfg, Topics topics);

  void start();
  [[nodiscard]] const http::Router& router() const { return router_; }

 private:
  config::ServiceConfig cfg_;
  Topics topics_;
  PetKeys keys_;
  redis::Pool pool_;
  redis::Multiplexer reads_;
  kafka::Producer producer_;
  ids::WorkerLease lease_;
  ids::IdGenerator ids_;
  PetsProjection projection_;
  std::unique_ptr<projection::Runner> runner_;
  es::EventLog log_;
  es::AggregateLock locks_;
  es::CatchUp catch_up_;
  es::IdempotencyStore idempotency_;
  ReadModel read_;
  WritePath write_;
  PetCommands pet_commands_;
  CategoryCommands category_commands_;
  http::Router router_;
};

Topics topics_from(const config::Env& env);

}  // namespace petstore::pets
