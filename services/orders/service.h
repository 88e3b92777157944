#pragma once

#include <string>

#include "config/service_config.h"
#include "es/owner_hints.h"
#include "orders/app/order_commands.h"
#include "orders/app/outcome_reaction.h"
#include "orders/app/writer.h"
#include "orders/projection/orders_projection.h"
#include "orders/projection/read_model.h"
#include "service/descriptor.h"
#include "service/hosted.h"

namespace petstore::orders {

struct Topics {
  std::string orders = "petstore.orders.v1";
  std::string inventory = "petstore.inventory.v1";
};

Topics topics_from(const config::Env& env);

// The orders service's own components, wired in one place (service::Hosted
// runs them): its projection, the orders topic's single writer, its
// reaction to the inventory's answers, and its routes.
class Components {
 public:
  using Keys = OrderKeys;
  Components(service::Platform& platform, http::Router& router, Topics topics, AnswerWait wait);
  void start(service::Platform& platform);

 private:
  Topics topics_;
  OrderKeys keys_;
  OrdersProjection projection_;
  ReadModel read_;
  es::OwnerHints owners_;
  // The orders topic's single writer (docs/consistency.md).
  OrderWriter writer_;
  OrdersOwnEvents own_;
  OrderCommands commands_;
  OutcomeReaction outcomes_;
};

using OrdersService = service::Hosted<Components>;

// The orders service, for its main and the tools (service::all_services).
const service::Descriptor& descriptor();

}  // namespace petstore::orders
