#include "inventory/service.h"

#include "inventory/http/routes.h"

namespace petstore::inventory {

Topics topics_from(const config::Env& env) {
  return {env.str("KAFKA_TOPIC_INVENTORY", "petstore.inventory.v1"),
          env.str("KAFKA_TOPIC_PETS", "petstore.pets.v1"),
          env.str("KAFKA_TOPIC_ORDERS", "petstore.orders.v1")};
}

Components::Components(service::Platform& platform, http::Router& router, Topics topics)
    : topics_(std::move(topics)),
      keys_(platform.config().prefix),
      projection_(InventoryModel(keys_)),
      read_(platform.reads(), keys_),
      owners_(platform.pool(), keys_.space().owners(topics_.inventory)),
      writer_(platform.producer(), platform.writer_settings(topics_.inventory, "inventory"), &owners_),
      own_(platform.pool(), platform.catch_up(), projection_),
      ledgers_(writer_, own_),
      pets_seen_(platform.config().kafka_brokers, platform.config().consumer_group(kPetsReactor),
                 platform.config().catch_up_timeout),
      pets_reaction_(ledgers_),
      orders_reaction_(ledgers_, pets_seen_, platform.log(), topics_.pets),
      stock_(ledgers_) {
  add_inventory_routes(router, {stock_, read_});
  platform.add_writer(topics_.inventory, writer_);
}

namespace {

void inventory_defaults(config::ServiceConfig& defaults) {
  // A linger of 1 ms, not the services' 2: the inventory appends the
  // saga's reservations, and a ledger has one event on its way at a time
  // (docs/consistency.md), so a hot pet's reservations go out one by one,
  // each waiting out the linger first; but it also appends a ledger for
  // every new pet, which without any linger all went out alone
  // (docs/performance.md, "Levers"). KAFKA_LINGER_MS still overrides it.
  defaults.kafka_linger_ms = 1;
}

}  // namespace

const service::Descriptor& descriptor() {
  static const service::Descriptor kInventory{
      .name = "inventory",
      .default_port = 8083,
      .make =
          [](const config::Env& env, const config::ServiceConfig& cfg) {
            return std::make_unique<InventoryService>(cfg, topics_from(env));
          },
      .defaults = inventory_defaults};
  return kInventory;
}

void Components::start(service::Platform& platform) {
  platform.start({topics_.inventory, topics_.pets, topics_.orders});
  platform.project({topics_.inventory}, projection_);
  // Two consumer groups, so an order can wait for the pets reaction to catch
  // up without blocking the thread that would do it.
  platform.react(kPetsReactor, {topics_.pets}, pets_reaction_);
  platform.react("orders-reactor", {topics_.orders}, orders_reaction_);
  writer_.start();
}

}  // namespace petstore::inventory
