// The inventory service: per-pet stock and its side of the order saga.
#include "service.h"
#include "service/serve.h"

int main() {
  using namespace petstore;
  // A linger of 1 ms, not the services' 2: the inventory appends the
  // saga's reservations, and a ledger has one event on its way at a time
  // (docs/consistency.md), so a hot pet's reservations go out one by one,
  // each waiting out the linger first. Without any linger, one
  // pet's orders went from 345/s to 590/s ("The local broker's Nagle",
  // docs/performance.md). But the inventory also appends a ledger for every
  // new pet, and every append then went out alone: on held stacks, 1 ms
  // instead of 0 took POST /pets at 16 connections from 1,816/s (p99 18 ms)
  // to 2,403–2,421/s (p99 11.4 ms) and orders over 100 pets from
  // 1,083–1,189/s to 1,312–1,339/s, while one pet's orders fell from
  // 569–584/s to 467–474/s and one order's latency stayed put
  // ("The inventory's linger, again", 2026-11-26). KAFKA_LINGER_MS still
  // overrides it.
  config::ServiceConfig defaults;
  defaults.kafka_linger_ms = 1;
  return service::serve(
      "inventory", 8083,
      [](const config::Env& env, const config::ServiceConfig& cfg) {
        return std::make_unique<inventory::InventoryService>(cfg, inventory::topics_from(env));
      },
      defaults);
}
