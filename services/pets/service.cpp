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
      pet_commands_(write_),
      category_commands_(write_) {
  const RouteDeps deps{pet_commands_,           category_commands_, read_,
                       platform_.idempotency(), platform_.ids(),    keys_};
  add_pet_routes(router_, deps);
  add_category_routes(router_, deps);
  platform_.add_platform_routes(router_);
}

void PetsService::start() {
  platform_.start({topics_.pets, topics_.categories});
  platform_.project({topics_.pets, topics_.categories}, projection_);
}

}  // namespace petstore::pets
