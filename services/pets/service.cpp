#include "pets/service.h"

#include "pets/http/routes.h"

namespace petstore::pets {

Topics topics_from(const config::Env& env) {
  return {env.str("KAFKA_TOPIC_PETS", "petstore.pets.v1"),
          env.str("KAFKA_TOPIC_CATEGORIES", "petstore.categories.v1")};
}

namespace {

WritePath::Settings write_settings(const config::ServiceConfig& cfg,
                                   std::chrono::milliseconds longest_append) {
  // A claim outlives the append it covers, with a margin for deciding.
  const auto claim_lease = std::max(cfg.command_lease, longest_append + std::chrono::milliseconds(1250));
  return {claim_lease, cfg.catch_up_timeout, longest_append};
}

}  // namespace

Components::Components(service::Platform& platform, http::Router& router, Topics topics)
    : topics_(std::move(topics)),
      keys_(platform.config().prefix),
      projection_(PetsModel(keys_)),
      read_(platform.reads(), keys_),
      write_(platform.pool(), platform.catch_up(), read_, projection_, keys_, topics_,
             write_settings(platform.config(), platform.longest_append())),
      pet_owners_(platform.pool(), keys_.space().owners(topics_.pets)),
      category_owners_(platform.pool(), keys_.space().owners(topics_.categories)),
      pet_writer_(platform.producer(), platform.writer_settings(topics_.pets, "pets"), &pet_owners_),
      category_writer_(platform.producer(), platform.writer_settings(topics_.categories, "categories"),
                       &category_owners_),
      pet_commands_(pet_writer_, write_),
      category_commands_(category_writer_, write_) {
  const RouteDeps deps{pet_commands_, category_commands_, read_, platform.idempotency(), keys_};
  add_pet_routes(router, deps);
  add_category_routes(router, deps);
  platform.add_writer(topics_.pets, pet_writer_);
  platform.add_writer(topics_.categories, category_writer_);
}

const service::Descriptor& descriptor() {
  static const service::Descriptor kPets{.name = "pets",
                                         .default_port = 8081,
                                         .make =
                                             [](const config::Env& env, const config::ServiceConfig& cfg) {
                                               return std::make_unique<PetsService>(cfg, topics_from(env));
                                             },
                                         .defaults = nullptr};
  return kPets;
}

void Components::start(service::Platform& platform) {
  platform.start({topics_.pets, topics_.categories});
  platform.project({topics_.pets, topics_.categories}, projection_);
  pet_writer_.start();
  category_writer_.start();
}

}  // namespace petstore::pets
