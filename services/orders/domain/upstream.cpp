#include "orders/domain/upstream.h"

#include "json/event_fields.h"

namespace petstore::orders {

std::optional<StockOutcome> read_stock_outcome(const events::Envelope& e) {
  const bool reserved = e.type == "io.petstore.inventory.reserved";
  if (!reserved && e.type != "io.petstore.inventory.refused") {
    return std::nullopt;
  }
  const json::EventFields f(e.data);
  StockOutcome outcome{f.integer("orderId"), reserved};
  if (!reserved) {
    outcome.reason = f.enumeration("reason", [](const std::string& s) { return parse_refusal(s); });
  }
  return outcome;
}

std::string outcome_event_id(std::string_view answer_id) {
  return events::name_based_event_id("order-outcome/" + std::string(answer_id));
}

}  // namespace petstore::orders
