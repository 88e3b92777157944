#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "es/key_space.h"
#include "orders/domain/order.h"

namespace petstore::orders {

// Every Redis key of the orders read model; records.h says what each holds.
class OrderKeys {
 public:
  explicit OrderKeys(const std::string& prefix) : space_(prefix, "orders") {}

  [[nodiscard]] const es::KeySpace& space() const { return space_; }
  [[nodiscard]] const std::string& base() const { return space_.base(); }
  [[nodiscard]] std::string offsets() const { return space_.offsets(); }

  [[nodiscard]] std::string order_prefix() const { return space_.key("order:"); }
  [[nodiscard]] std::string order(std::int64_t id) const { return order_prefix() + std::to_string(id); }
  [[nodiscard]] std::string idempotency(std::string_view key) const {
    return space_.key("idem:orders:" + std::string(key));
  }
  // Only the shared write-path keys (idempotency, owner hints, positions).
  [[nodiscard]] static es::NotFromLog not_from_log() { return {}; }

  // Sorted sets (score = id) for the filters of GET /store/orders: all, by
  // pet, by status, by completeness, and by pet with either of the last two.
  [[nodiscard]] std::string index(std::optional<std::int64_t> pet, std::optional<OrderStatus> status,
                                  std::optional<bool> complete) const {
    std::string rest = "orders:";
    if (pet) {
      rest += "p:" + std::to_string(*pet) + ":";
    }
    if (status) {
      rest += "s:" + std::string(to_string(*status));
    } else if (complete) {
      rest += *complete ? "c:1" : "c:0";
    } else {
      rest += "all";
    }
    return space_.key(rest);
  }

 private:
  es::KeySpace space_;
};

}  // namespace petstore::orders
