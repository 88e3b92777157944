#include "orders/service.h"

#include "orders/http/routes.h"

namespace petstore::orders {

Topics topics_from(const config::Env& env) {
  return {env.str("KAFKA_TOPIC_ORDERS", "petstore.orders.v1"),
          env.str("KAFKA_TOPIC_INVENTORY", "petstore.inventory.v1")};
}

Components::Components(service::Platform& platform, http::Router& router, Topics topics, AnswerWait wait)
    : topics_(std::move(topics)),
      keys_(platform.config().prefix),
      projection_(OrdersModel(keys_)),
      read_(platform.reads(), keys_),
      owners_(platform.pool(), keys_.space().owners(topics_.orders)),
      writer_(platform.producer(), platform.writer_settings(topics_.orders, "orders"), &owners_),
      own_(platform.pool(), platform.catch_up(), projection_),
      commands_(writer_, own_, read_, wait),
      outcomes_(commands_) {
  add_order_routes(router, {commands_, read_, platform.idempotency(), keys_});
  platform.add_writer(topics_.orders, writer_);
}

const service::Descriptor& descriptor() {
  static const service::Descriptor kOrders{
      .name = "orders",
      .default_port = 8082,
      .make =
          [](const config::Env& env, const config::ServiceConfig& cfg) {
            const AnswerWait wait{
                env.millis("ORDER_OUTCOME_WAIT_MS", std::chrono::milliseconds(3000)),
                // At least 1 ms: the waiting request would spin on the read model.
                std::chrono::milliseconds(env.integer("ORDER_ANSWER_RECHECK_MS", 50, 1, 86'400'000))};
            return std::make_unique<OrdersService>(cfg, topics_from(env), wait);
          },
      .defaults = nullptr};
  return kOrders;
}

void Components::start(service::Platform& platform) {
  platform.start({topics_.orders, topics_.inventory});
  platform.project({topics_.orders}, projection_);
  platform.react("outcome-reactor", {topics_.inventory}, outcomes_);
  writer_.start();
}

}  // namespace petstore::orders
