#include "app/outcome_reaction.h"

#include "domain/upstream.h"
#include "projection/read_upstream.h"

namespace petstore::orders {

void OutcomeReaction::handle(const kafka::Message& m) {
  if (const auto outcome = projection::read_upstream(m, "orders", read_stock_outcome)) {
    orders_.record_outcome(*outcome);
  }
}

}  // namespace petstore::orders
