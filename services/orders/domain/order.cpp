#include "orders/domain/order.h"

#include <array>
#include <utility>

namespace petstore::orders {
namespace {

constexpr std::array<std::pair<OrderStatus, std::string_view>, 5> kNames = {{
    {OrderStatus::Placed, "placed"},
    {OrderStatus::Reserved, "reserved"},
    {OrderStatus::Rejected, "rejected"},
    {OrderStatus::Completed, "completed"},
    {OrderStatus::Cancelled, "cancelled"},
}};

}  // namespace

std::string_view to_string(OrderStatus s) {
  for (const auto& [status, name] : kNames) {
    if (status == s) {
      return name;
    }
  }
  return "placed";
}

std::optional<OrderStatus> parse_order_status(std::string_view text) {
  for (const auto& [status, name] : kNames) {
    if (name == text) {
      return status;
    }
  }
  return std::nullopt;
}

}  // namespace petstore::orders
