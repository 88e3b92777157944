#pragma once

#include <cstdint>
#include <optional>

#include "orders/domain/order.h"
#include "orders/projection/keys.h"
#include "readmodel/history.h"
#include "readmodel/list_page.h"
#include "redis/multiplexer.h"

namespace petstore::orders {

struct OrderFilter {
  std::optional<std::int64_t> pet_id;
  std::optional<OrderStatus> status;
  std::optional<bool> complete;  // not combined with status
};

// Queries against the orders read model, one round trip each.
class ReadModel {
 public:
  ReadModel(redis::Multiplexer& reads, OrderKeys keys);

  std::optional<Order> order(std::int64_t id);
  // The order, or 404 order_not_found.
  Order require_order(std::int64_t id);
  // The aggregate's events (CloudEvents JSON) after version `page.after`; 404
  // when no event names it. Kept after a deletion.
  readmodel::Page<std::string> order_history(std::int64_t id, const readmodel::PageRequest& page);
  readmodel::Page<Order> orders(const OrderFilter& filter, const readmodel::PageRequest& page);

 private:
  redis::Multiplexer& reads_;
  OrderKeys keys_;
  readmodel::Lister lister_;
};

}  // namespace petstore::orders
