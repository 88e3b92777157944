#pragma once

#include <string>

#include "config/service_config.h"
#include "es/catch_up.h"
#include "es/owner_hints.h"
#include "inventory/app/ledgers.h"
#include "inventory/app/reactions.h"
#include "inventory/app/stock_commands.h"
#include "inventory/app/writer.h"
#include "inventory/projection/inventory_projection.h"
#include "inventory/projection/read_model.h"
#include "service/descriptor.h"
#include "service/hosted.h"

namespace petstore::inventory {

struct Topics {
  std::string inventory = "petstore.inventory.v1";
  std::string pets = "petstore.pets.v1";
  std::string orders = "petstore.orders.v1";
};

Topics topics_from(const config::Env& env);

// The consumer group of the inventory's reaction to pets events: the
// orders reaction waits on its committed positions (OrdersReaction).
inline constexpr const char* kPetsReactor = "pets-reactor";

// The inventory service's own components, wired in one place
// (service::Hosted runs them): its projection, the inventory topic's single
// writer, its two reactions (to pets and to orders events) and its routes.
class Components {
 public:
  using Keys = InventoryKeys;
  Components(service::Platform& platform, http::Router& router, Topics topics);
  void start(service::Platform& platform);

 private:
  Topics topics_;
  InventoryKeys keys_;
  InventoryProjection projection_;
  ReadModel read_;
  es::OwnerHints owners_;
  // The inventory topic's single writer (docs/consistency.md).
  LedgerWriter writer_;
  InventoryOwnEvents own_;
  Ledgers ledgers_;
  es::GroupCatchUp pets_seen_;  // the pets reaction's group (kPetsReactor)
  PetsReaction pets_reaction_;
  OrdersReaction orders_reaction_;
  StockCommands stock_;
};

using InventoryService = service::Hosted<Components>;

// The inventory service, for its main and the tools (service::all_services).
const service::Descriptor& descriptor();

}  // namespace petstore::inventory
