#include "orders/app/outcome_reaction.h"

#include "orders/domain/upstream.h"
#include "projection/read_upstream.h"

namespace petstore::orders {

void OutcomeReaction::handle(const kafka::Message& m) {
  if (const auto outcome = projection::read_upstream(m, "orders", read_stock_outcome)) {
    orders_.record_outcome(*outcome);
  }
}

std::string OutcomeReaction::affinity(const kafka::Message& m) {
  const auto outcome = projection::peek_upstream(m, read_stock_outcome);
  return outcome ? "order:" + std::to_string(outcome->order_id) : std::string();
}

}  // namespace petstore::orders
