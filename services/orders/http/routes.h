#pragma once

#include "es/idempotency.h"
#include "http/router.h"
#include "orders/app/order_commands.h"
#include "orders/projection/keys.h"
#include "orders/projection/read_model.h"

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
