#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "vocabulary/order_refusal.h"

namespace petstore::orders {

// An order's life cycle (README, "Orders"): placed -> reserved | rejected (the
// inventory's answer, and nothing else: docs/saga.md); reserved -> completed
// | cancelled. Completed, rejected and cancelled are final.
enum class OrderStatus { Placed, Reserved, Rejected, Completed, Cancelled };

std::string_view to_string(OrderStatus s);
std::optional<OrderStatus> parse_order_status(std::string_view text);

struct Order {
  std::int64_t id = 0;
  std::int64_t pet_id = 0;
  std::int64_t quantity = 0;
  std::optional<std::string> ship_date;
  OrderStatus status = OrderStatus::Placed;
  std::optional<OrderRefusal> rejection;
  std::int64_t version = 0;
  std::string created_at;
  std::string updated_at;

  [[nodiscard]] bool complete() const { return status == OrderStatus::Completed; }
  bool operator==(const Order&) const = default;
};

// What a client asks for when placing an order.
struct OrderFields {
  std::int64_t pet_id = 0;
  std::int64_t quantity = 1;
  std::optional<std::string> ship_date;
};

// Most units one order may ask for.
inline constexpr std::int64_t kMaxOrderQuantity = 1000;

}  // namespace petstore::orders
