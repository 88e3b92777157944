#pragma once

#include <cstdint>
#include <optional>

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

}  // namespace petstore::orders
