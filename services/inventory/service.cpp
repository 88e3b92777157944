#include "inventory/service.h"

#include "inventory/http/routes.h"

namespace petstore::inventory {

Topics topics_from(const config::Env& env) {
  return {env.str("KAFKA_TOPIC_INVENTORY", "petstore.inventory.v1"),
          env.str("KAFKA_TOPIC_PETS", "petstore.pets.v1"),
          env.str("KAFKA_TOPIC_ORDERS", "petstore.orders.v1")};
}

InventoryService::InventoryService(const config::ServiceConfig& cfg, Topics topics)
    : topics_(std::move(topics)),
      keys_(cfg.prefix),
      platform_(cfg, keys_.space()),
      projection_(InventoryModel(keys_)),
      read_(platform_.reads(), keys_),
      owners_(platform_.pool(), keys_.space().owners(topics_.inventory)),
      writer_(platform_.producer(), platform_.writer_settings(topics_.inventory, "inventory"), &owners_),
      own_(platform_.pool(), platform_.catch_up(), projection_),
      ledgers_(writer_, own_),
      pets_seen_(cfg.kafka_brokers, cfg.consumer_group(kPetsReactor), cfg.catch_up_timeout),
      pets_reaction_(ledgers_),
      orders_reaction_(ledgers_, pets_seen_, platform_.log(), topics_.pets),
      stock_(ledgers_) {
  add_inventory_routes(router_, {stock_, read_});
  platform_.add_writer(topics_.inventory, writer_);
  platform_.add_platform_routes(router_);
}

void InventoryService::start() {
  platform_.start({topics_.inventory, topics_.pets, topics_.orders});
  platform_.project({topics_.inventory}, projection_);
  // Two consumer groups, so an order can wait for the pets reaction to catch
  // up without blocking the thread that would do it.
  platform_.react(kPetsReactor, {topics_.pets}, pets_reaction_);
  platform_.react("orders-reactor", {topics_.orders}, orders_reaction_);
  writer_.start();
}

}  // namespace petstore::inventory
