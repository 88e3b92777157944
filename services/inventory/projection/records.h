#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <hiredis/hiredis.h>

#include "inventory/domain/evolve.h"
#include "inventory/domain/item.h"
#include "inventory/projection/keys.h"
#include "projection/effect.h"

namespace petstore::inventory {

// How the read model holds a stock ledger: the fields of its entry's hash
// and what it recorded for each order (InventoryKeys::reservations), read
// back (by ReadModel, and by the projection, which folds on what it reads)
// and written (as the projection::Record the fold leaves). The one place a
// field of either is named in Redis.

// Field order of an HMGET that item_from() reads.
extern const std::span<const std::string_view> kItemFields;

// The entry of an HMGET of those fields (version 0: none yet).
Item item_from(std::int64_t pet, redisReply* const* fields);
// What an order's reservation field holds ("reserved:2"); none for nil or
// text that is not one.
std::optional<Reservation> reservation_from(const redisReply& field);

// What the read model holds of a ledger: its entry's fields, the lists and
// counts of tracked entries, and its reservations. Nothing before its first
// event.
projection::Record ledger_record(const InventoryKeys& keys, const Ledger& ledger);

}  // namespace petstore::inventory
