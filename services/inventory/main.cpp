// The inventory service: per-pet stock and its side of the order saga.
#include "service.h"
#include "service/serve.h"

int main() {
  using namespace petstore;
  // No linger: the inventory appends the saga's reservations, and a ledger
  // has one event on its way at a time (docs/consistency.md), so each of a
  // hot pet's reservations waits for the last one's delivery report. Without
  // the 2 ms linger, one pet's orders went from 259–274/s to 367–498/s on a
  // short log (docs/performance.md, "the inventory's producer without
  // linger, and the writers' own read-back wait", 2026-11-25); with the
  // local broker's Nagle off, from 345/s to 590/s ("The local broker's
  // Nagle"). KAFKA_LINGER_MS still overrides it.
  config::ServiceConfig defaults;
  defaults.kafka_linger_ms = 0;
  return service::serve(
      "inventory", 8083,
      [](const config::Env& env, const config::ServiceConfig& cfg) {
        return std::make_unique<inventory::InventoryService>(cfg, inventory::topics_from(env));
      },
      defaults);
}
