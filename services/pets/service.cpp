#include "service.h"

#include "http/routes.h"

namespace petstore::pets {

Topics topics_from(const config::Env& env) {
  return {env.str("KAFKA_TOPIC_PETS", "petstore.pets.v1"),
          env.str("KAFKA_TOPIC_CATEGORIES", "petstore.categories.v1")};
}

PetsService::PetsService(const config::ServiceConfig& cfg, Topics topics)
    : topics_(std::move(topics)),
      keys_(cfg.prefix),
      platform_(cfg, keys_.space()),
      projection_(keys_),
      read_(platform_.reads(), keys_),
      write_(platform_.commands(), read_, projection_, keys_, topics_),
      owner_hints_(platform_.pool(), keys_.space().owners(topics_.pets)),
      pet_writer_(platform_.producer(),
                  {cfg.kafka_brokers, cfg.consumer_group("writers"), topics_.pets, cfg.instance,
                   "/petstore/pets", std::chrono::milliseconds(100), cfg.advertised_url},
                  &owner_hints_),
      pet_commands_(pet_writer_, write_),
      category_commands_(write_) {
  const RouteDeps deps{pet_commands_,           category_commands_, read_,
                       platform_.idempotency(), platform_.ids(),    keys_};
  add_pet_routes(router_, deps);
  add_category_routes(router_, deps);
  platform_.add_writer(topics_.pets, [this] { return pet_writer_.settled(); });
  platform_.add_platform_routes(router_);
}

void PetsService::start() {
  platform_.start({topics_.pets, topics_.categories});
  platform_.project({topics_.pets, topics_.categories}, projection_);
  pet_writer_.start();
}

}  // namespace petstore::pets
