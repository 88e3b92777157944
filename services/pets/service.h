#pragma once

#include "config/service_config.h"
#include "es/owner_hints.h"
#include "http/router.h"
#include "pets/app/category_commands.h"
#include "pets/app/pet_commands.h"
#include "pets/app/write_path.h"
#include "pets/app/writers.h"
#include "pets/projection/pets_projection.h"
#include "pets/projection/read_model.h"
#include "service/platform.h"
#include "service/serve.h"

namespace petstore::pets {

// The pets service's components, wired in one place. Constructing it opens
// no connection (clients connect lazily), so tests can inspect the route
// table; start() starts the projection and joins the
// pets topic's writers.
class PetsService : public service::Service {
 public:
  PetsService(const config::ServiceConfig& cfg, Topics topics);
  ~PetsService() override { platform_.stop(); }
  PetsService(const PetsService&) = delete;
  PetsService& operator=(const PetsService&) = delete;

  void start() override;
  [[nodiscard]] const http::Router& router() const override { return router_; }
  [[nodiscard]] bool ready() const override { return platform_.ready(); }
  void resign() override { platform_.resign(); }

 private:
  Topics topics_;
  PetKeys keys_;
  service::Platform platform_;
  PetsProjection projection_;
  ReadModel read_;
  WritePath write_;
  es::OwnerHints pet_owners_;
  es::OwnerHints category_owners_;
  // Each topic's single writer (docs/consistency.md).
  PetWriter pet_writer_;
  CategoryWriter category_writer_;
  PetCommands pet_commands_;
  CategoryCommands category_commands_;
  http::Router router_;
};

Topics topics_from(const config::Env& env);

}  // namespace petstore::pets
