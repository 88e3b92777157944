#pragma once

#include <string>

#include "orders/app/order_commands.h"
#include "projection/reactor.h"

namespace petstore::orders {

// The orders service's side of the saga: the inventory's reserved/refused
// events become the order's reserved/rejected events.
class OutcomeReaction : public projection::Reaction {
 public:
  explicit OutcomeReaction(OrderCommands& orders) : orders_(orders) {}
  void handle(const kafka::Message& message) override;
  // The order: one pet's outcomes (one partition) reach many orders.
  std::string affinity(const kafka::Message& message) override;

 private:
  OrderCommands& orders_;
};

}  // namespace petstore::orders
