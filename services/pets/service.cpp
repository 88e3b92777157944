#include "service.h"

#include "http/health.h"
#include "http/routes.h"

namespace petstore::pets {

Topics topics_from(const config::Env& env) {
  return {env.str("KAFKA_TOPIC_PETS", "petstore.pets.v1"),
          env.str("KAFKA_TOPIC_CATEGORIES", "petstore.categories.v1")};
}

PetsService::PetsService(const config::ServiceConfig& cfg, Topics topics)
    : cfg_(cfg),
      topics_(std::move(topics)),
      keys_(cfg.prefix),
      pool_(cfg.redis, cfg.redis_pool_idle),
      reads_(cfg.redis),
      producer_(cfg.producer()),
      lease_(pool_, cfg.prefix, std::chrono::seconds(30)),
      ids_(0, ids::system_unix_ms),
      projection_(keys_),
      log_(producer_, "/petstore/pets"),
      locks_(pool_, cfg.command_lease, cfg.lock_wait),
      catch_up_(producer_, pool_, keys_.offsets(), cfg.catch_up_timeout),
      idempotency_(pool_, cfg.command_lease, std::chrono::hours(24)),
      read_(reads_, keys_),
      write_(log_, locks_, catch_up_, pool_, read_, projection_, keys_, topics_, cfg.command_lease,
             std::chrono::milliseconds(cfg.kafka_delivery_timeout_ms)),
      pet_commands_(write_),
      category_commands_(write_) {
  const RouteDeps deps{pet_commands_, category_commands_, read_, idempotency_, ids_, keys_};
  add_pet_routes(router_, deps);
  add_category_routes(router_, deps);
  http::add_health_route(router_, {{"redis",
                                    [this] {
                                      return pool_.run([](redis::Connection& c) {
                                        return !redis::is_error(*c.command({"PING"}));
                                      });
                                    }},
                                   {"kafka", [this] { return producer_.reachable(1000); }}});
}

void PetsService::start() {
  // Fail fast when the topics are missing, rather than at the first write.
  producer_.partitions(topics_.pets);
  producer_.partitions(topics_.categories);
  ids_.set_worker(lease_.start([this](std::int64_t worker) { ids_.set_worker(worker); }));
  runner_ = std::make_unique<projection::Runner>(kafka::ConsumerSettings{cfg_.kafka_brokers,
                                                                         cfg_.consumer_group("projection"),
                                                                         "pets-projection-" + cfg_.instance,
                                                                         {topics_.pets, topics_.categories},
                                                                         cfg_.kafka_fetch_wait_max_ms},
                                                 pool_, keys_.offsets(), projection_);
  runner_->start();
}

}  // namespace petstore::pets
