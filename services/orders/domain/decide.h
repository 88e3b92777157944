#pragma once

#include <optional>
#include <string>

#include "orders/domain/events.h"
#include "orders/domain/order.h"
#include "orders/domain/upstream.h"

namespace petstore::orders {

// Pure decisions on one order. nullopt means the command or fact changes
// nothing (already done), which keeps retries and redeliveries harmless.

// 400 invalid_quantity / invalid_value for fields outside the documented bounds.
OrderPlaced decide_place(std::int64_t id, const OrderFields& fields);
// Only a placed order takes the inventory's answer; later ones are ignored.
std::optional<Event> decide_outcome(const Order& order, const StockOutcome& outcome);
// reserved -> completed; 409 illegal_order_transition from rejected or
// cancelled; nullopt when already completed. A placed order is completed
// and cancelled only once the inventory has answered: until then both are
// DomainError::Kind::NotYet (order_awaiting_stock), so the answer alone
// decides a placed order's outcome (docs/saga.md).
std::optional<OrderCompleted> decide_complete(const Order& order, const std::string& ship_date);
// reserved -> cancelled; 409 from completed or rejected; nullopt when
// already cancelled.
std::optional<OrderCancelled> decide_cancel(const Order& order);

}  // namespace petstore::orders
