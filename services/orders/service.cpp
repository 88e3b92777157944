#include "orders/service.h"

#include "orders/http/routes.h"

namespace petstore::orders {

Topics topics_from(const config::Env& env) {
  return {env.str("KAFKA_TOPIC_ORDERS", "petstore.orders.v1"),
          env.str("KAFKA_TOPIC_INVENTORY", "petstore.inventory.v1")};
}

OrdersService::OrdersService(const config::ServiceConfig& cfg, Topics topics, AnswerWait wait)
    : topics_(std::move(topics)),
      keys_(cfg.prefix),
      platform_(cfg, keys_.space()),
      projection_(OrdersModel(keys_)),
      read_(platform_.reads(), keys_),
      owners_(platform_.pool(), keys_.space().owners(topics_.orders)),
      writer_(platform_.producer(), platform_.writer_settings(topics_.orders, "orders"), &owners_),
      own_(platform_.pool(), platform_.catch_up(), projection_),
      commands_(writer_, own_, read_, wait),
      outcomes_(commands_) {
  add_order_routes(router_, {commands_, read_, platform_.idempotency(), keys_});
  platform_.add_writer(topics_.orders, writer_);
  platform_.add_platform_routes(router_);
}

void OrdersService::start() {
  platform_.start({topics_.orders, topics_.inventory});
  platform_.project({topics_.orders}, projection_);
  platform_.react("outcome-reactor", {topics_.inventory}, outcomes_);
  writer_.start();
}

}  // namespace petstore::orders
