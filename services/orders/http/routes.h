#pragma once

#include "app/order_commands.h"
#include "es/idempotency.h"
#include "http/router.h"
#include "projection/keys.h"
#include "projection/read_model.h"

namespace petstore::orders {

struct RouteDeps {
  OrderCommands& orders;
  ReadModel& read;
  es::IdempotencyStore& idempotency;
  const OrderKeys& keys;
};

// POST and GET /store/orders, GET /store/orders/{orderId},
// POST /store/orders/{orderId}/complete and /cancel.
void add_order_routes(http::Router& router, const RouteDeps& deps);

}  // namespace petstore::orders
