// The orders service: customer orders and their side of the order saga.
#include "orders/service.h"
#include "service/serve.h"

int main() {
  using namespace petstore;
  return service::serve("orders", 8082, [](const config::Env& env, const config::ServiceConfig& cfg) {
    const orders::AnswerWait wait{
        env.millis("ORDER_OUTCOME_WAIT_MS", std::chrono::milliseconds(3000)),
        // At least 1 ms: the waiting request would spin on the read model.
        std::chrono::milliseconds(env.integer("ORDER_ANSWER_RECHECK_MS", 50, 1, 86'400'000))};
    return std::make_unique<orders::OrdersService>(cfg, orders::topics_from(env), wait);
  });
}
