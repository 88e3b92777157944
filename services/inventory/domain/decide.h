#pragma once

#include <cstdint>
#include <optional>

#include "inventory/domain/events.h"
#include "inventory/domain/item.h"
#include "inventory/domain/upstream.h"

namespace petstore::inventory {

// Pure decisions on one pet's stock ledger. Each returns the event to record,
// or nullopt when the fact was already taken into account: that is what makes
// every reaction safe to replay when an event is delivered again.

// Mirrors the catalogue: a pet event older than the last one mirrored is ignored.
std::optional<Event> decide_pet_fact(const Item& item, const PetFact& fact);

// An InventoryUpdate: 404 for a pet not in the catalogue, 400 for a quantity
// outside 0..kMaxQuantity; nullopt when the quantity is already that.
std::optional<StockSet> decide_set_stock(const Item& item, std::int64_t quantity);

// The order saga's steps. `recorded` is what the ledger holds for the order.
// Placed: reserve if the pet is tracked, available and has the units; else
// refuse with the reason. Cancelled releases a reservation; completed
// consumes it; either does nothing for an order without one.
std::optional<Event> decide_order_fact(const Item& item, const Reservation& recorded, const OrderFact& fact);

}  // namespace petstore::inventory
