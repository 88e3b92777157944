#include "pets/service.h"

#include <stdexcept>

#include "pets/http/routes.h"

namespace petstore::pets {

Topics topics_from(const config::Env& env) {
  return {env.str("KAFKA_TOPIC_PETS", "petstore.pets.v1"),
          env.str("KAFKA_TOPIC_CATEGORIES", "petstore.categories.v1")};
}

namespace {

AdmissionWindow admission_window(std::chrono::milliseconds longest_append) {
  AdmissionWindow window;
  window.longest_append = longest_append;
  if (window.total() >= kAdmissionsKept) {  // a delete would no longer see every admission it waits for
    throw std::invalid_argument("the admission window outlasts the admissions a category keeps");
  }
  return window;
}

}  // namespace

Components::Components(service::Platform& platform, http::Router& router, Topics topics)
    : topics_(std::move(topics)),
      keys_(platform.config().prefix),
      projection_(PetsModel(keys_)),
      read_(platform.reads(), keys_),
      write_(platform.pool(), platform.catch_up(), read_, projection_, topics_),
      pet_owners_(platform.pool(), keys_.space().owners(topics_.pets)),
      category_owners_(platform.pool(), keys_.space().owners(topics_.categories)),
      pet_writer_(platform.producer(), platform.writer_settings(topics_.pets, "pets"), &pet_owners_),
      category_writer_(platform.producer(), platform.writer_settings(topics_.categories, "categories"),
                       &category_owners_),
      category_commands_(category_writer_, write_, admission_window(platform.longest_append()),
                         admission_relay(platform.forwarder())),
      pet_commands_(pet_writer_, write_, category_commands_) {
  const RouteDeps deps{pet_commands_, category_commands_,
                       read_,         platform.idempotency(),
                       keys_,         platform.config().trusted_proxies};
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
