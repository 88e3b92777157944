#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <hiredis/hiredis.h>

#include "orders/domain/order.h"
#include "orders/projection/keys.h"
#include "projection/effect.h"

namespace petstore::orders {

// How the read model holds an order: the fields of its hash, read back (by
// ReadModel, and by the projection, which folds on what it reads) and
// written (as the projection::Record the fold leaves). The one place a
// field of an order is named in Redis.

// Field order of an HMGET that order_from() reads.
extern const std::span<const std::string_view> kOrderFields;

// The order of an HMGET of those fields; none for a key that holds none.
std::optional<Order> order_from(std::int64_t id, redisReply* const* fields);

// What the read model holds of an order: its fields, and the lists of
// GET /store/orders it is in (OrderKeys::index). Nothing for one not placed.
projection::Record order_record(const OrderKeys& keys, const Order& order);

}  // namespace petstore::orders
