#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "events/event_type.h"
#include "vocabulary/order_refusal.h"

namespace petstore::json {
class EventFields;
}

namespace petstore::orders {

// The facts the orders service records, one CloudEvent each on
// petstore.orders.v1 keyed by order id (schemas/events/order.*.json). Every
// payload names the pet and quantity, so the inventory can act on any of them.
struct OrderPlaced {
  static constexpr std::string_view kType = "io.petstore.order.placed";
  std::int64_t id = 0;
  std::int64_t pet_id = 0;
  std::int64_t quantity = 0;
  std::optional<std::string> ship_date;
};
struct OrderReserved {  // the inventory reserved the stock
  static constexpr std::string_view kType = "io.petstore.order.reserved";
  std::int64_t id = 0;
  std::int64_t pet_id = 0;
  std::int64_t quantity = 0;
};
struct OrderRejected {  // the inventory refused
  static constexpr std::string_view kType = "io.petstore.order.rejected";
  std::int64_t id = 0;
  std::int64_t pet_id = 0;
  std::int64_t quantity = 0;
  OrderRefusal reason = OrderRefusal::InsufficientStock;
};
struct OrderCompleted {
  static constexpr std::string_view kType = "io.petstore.order.completed";
  std::int64_t id = 0;
  std::int64_t pet_id = 0;
  std::int64_t quantity = 0;
  std::string ship_date;
};
struct OrderCancelled {
  static constexpr std::string_view kType = "io.petstore.order.cancelled";
  std::int64_t id = 0;
  std::int64_t pet_id = 0;
  std::int64_t quantity = 0;
};

using Event = std::variant<OrderPlaced, OrderReserved, OrderRejected, OrderCompleted, OrderCancelled>;

inline constexpr int kSchemaVersion = 1;

using events::type_of;  // each event's kType (events/event_type.h)
std::int64_t aggregate_of(const Event& e);
std::string encode(const Event& e);
Event decode(std::string_view type, std::string_view data);
// The same over a payload already parsed.
Event decode(std::string_view type, const json::EventFields& fields);

}  // namespace petstore::orders
