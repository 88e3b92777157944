#pragma once

#include "config/service_config.h"
#include "es/owner_hints.h"
#include "pets/app/category_commands.h"
#include "pets/app/pet_commands.h"
#include "pets/app/write_path.h"
#include "pets/app/writers.h"
#include "pets/projection/pets_projection.h"
#include "pets/projection/read_model.h"
#include "service/descriptor.h"
#include "service/hosted.h"

namespace petstore::pets {

// The pets service's own components, wired in one place (service::Hosted
// runs them): its projection, the single writers of the pets and
// categories topics, their commands and routes. start() starts the
// projection and joins the writers' groups.
class Components {
 public:
  using Keys = PetKeys;
  Components(service::Platform& platform, http::Router& router, Topics topics);
  void start(service::Platform& platform);

 private:
  Topics topics_;
  PetKeys keys_;
  PetsProjection projection_;
  ReadModel read_;
  WritePath write_;
  es::OwnerHints pet_owners_;
  es::OwnerHints category_owners_;
  // Each topic's single writer (docs/consistency.md).
  PetWriter pet_writer_;
  CategoryWriter category_writer_;
  CategoryCommands category_commands_;
  PetCommands pet_commands_;
};

using PetsService = service::Hosted<Components>;

// The pets service, for its main and the tools (service::all_services).
const service::Descriptor& descriptor();

Topics topics_from(const config::Env& env);

}  // namespace petstore::pets
