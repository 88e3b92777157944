// The inventory service: per-pet stock and its side of the order saga.
#include "inventory/service.h"
#include "service/serve.h"

int main() {
  using namespace petstore;
  // A linger of 1 ms, not the services' 2: the inventory appends the
  // saga's reservations, and a ledger has one event on its way at a time
  // (docs/consistency.md), so a hot pet's reservations go out one by one,
  // each waiting out the linger first; but it also appends a ledger for
  // every new pet, which without any linger all went out alone
  // (docs/performance.md, "Levers"). KAFKA_LINGER_MS still overrides it.
  config::ServiceConfig defaults;
  defaults.kafka_linger_ms = 1;
  return service::serve(
      "inventory", 8083,
      [](const config::Env& env, const config::ServiceConfig& cfg) {
        return std::make_unique<inventory::InventoryService>(cfg, inventory::topics_from(env));
      },
      defaults);
}
