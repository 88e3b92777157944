#pragma once

#include <string>

#include "config/service_config.h"
#include "es/owner_hints.h"
#include "http/router.h"
#include "orders/app/order_commands.h"
#include "orders/app/outcome_reaction.h"
#include "orders/app/writer.h"
#include "orders/projection/orders_projection.h"
#include "orders/projection/read_model.h"
#include "service/platform.h"
#include "service/serve.h"

namespace petstore::orders {

struct Topics {
  std::string orders = "petstore.orders.v1";
  std::string inventory = "petstore.inventory.v1";
};

Topics topics_from(const config::Env& env);

// The orders service's components, wired in one place: its projection, the
// orders topic's single writer, its reaction to the inventory's answers, and
// its routes. Constructing it opens no connection.
class OrdersService : public service::Service {
 public:
  OrdersService(const config::ServiceConfig& cfg, Topics topics, AnswerWait wait);
  ~OrdersService() override { platform_.stop(); }
  OrdersService(const OrdersService&) = delete;
  OrdersService& operator=(const OrdersService&) = delete;

  void start() override;
  [[nodiscard]] const http::Router& router() const override { return router_; }
  [[nodiscard]] bool ready() const override { return platform_.ready(); }
  void resign() override { platform_.resign(); }

 private:
  Topics topics_;
  OrderKeys keys_;
  service::Platform platform_;
  OrdersProjection projection_;
  ReadModel read_;
  es::OwnerHints owners_;
  // The orders topic's single writer (docs/consistency.md).
  OrderWriter writer_;
  OrdersOwnEvents own_;
  OrderCommands commands_;
  OutcomeReaction outcomes_;
  http::Router router_;
};

}  // namespace petstore::orders
