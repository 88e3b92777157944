// The inventory service: per-pet stock and its side of the order saga.
#include "service.h"
#include "service/serve.h"

int main() {
  using namespace petstore;
  return service::serve("inventory", 8083, [](const config::Env& env, const config::ServiceConfig& cfg) {
    return std::make_unique<inventory::InventoryService>(cfg, inventory::topics_from(env));
  });
}
