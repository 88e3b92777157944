#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "events/envelope.h"
#include "vocabulary/order_refusal.h"

namespace petstore::orders {

// The inventory's answer to a placed order, read from its published events
// (docs/events.md). Other inventory events read as nullopt.
struct StockOutcome {
  std::int64_t order_id = 0;
  bool reserved = false;
  OrderRefusal reason = OrderRefusal::InsufficientStock;  // when not reserved
};

// Throws std::invalid_argument for a known type with a bad payload.
std::optional<StockOutcome> read_stock_outcome(const events::Envelope& e);

// The ce_id of the order's outcome that the answer `answer_id` binds:
// name-based on it, so every replica that records the outcome records one
// event (docs/saga.md, "What the client sees").
std::string outcome_event_id(std::string_view answer_id);

}  // namespace petstore::orders
