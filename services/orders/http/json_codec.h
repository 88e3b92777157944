#pragma once

#include <optional>
#include <string>
#include <vector>

#include <httplib.h>

#include "orders/domain/order.h"

namespace petstore::orders {

// POST /store/orders body: petId (required), quantity (default 1), shipDate
// (optional, RFC 3339). id and status are the service's to set, and
// complete may only be false.
OrderFields parse_new_order(const httplib::Request& req);
// POST /store/orders/{orderId}/complete body, optional: {"shipDate": ...}.
std::optional<std::string> parse_completion(const httplib::Request& req);

std::string to_json(const Order& order);
std::string to_json(const std::vector<Order>& orders);

}  // namespace petstore::orders
