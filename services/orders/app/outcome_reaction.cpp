#include "orders/app/outcome_reaction.h"

#include "orders/domain/upstream.h"
#include "projection/read_upstream.h"

namespace petstore::orders {

void OutcomeReaction::handle(const kafka::Message& m) {
  struct Answer {
    StockOutcome outcome;
    events::Envelope envelope;
  };
  const auto answer = projection::read_upstream(m, "orders", [](events::Envelope e) -> std::optional<Answer> {
    if (auto outcome = read_stock_outcome(e)) {
      return Answer{*outcome, std::move(e)};
    }
    return std::nullopt;
  });
  if (answer) {
    orders_.record_outcome(answer->outcome, answer->envelope);
  }
}

std::string OutcomeReaction::affinity(const kafka::Message& m) {
  const auto outcome = projection::peek_upstream(m, read_stock_outcome);
  return outcome ? "order:" + std::to_string(outcome->order_id) : std::string();
}

}  // namespace petstore::orders
