// The orders service: customer orders and their side of the order saga.
#include "service.h"
#include "service/serve.h"

int main() {
  using namespace petstore;
  return service::serve("orders", 8082, [](const config::Env& env, const config::ServiceConfig& cfg) {
    return std::make_unique<orders::OrdersService>(
        cfg, orders::topics_from(env), env.millis("ORDER_OUTCOME_WAIT_MS", std::chrono::milliseconds(3000)));
  });
}
