#pragma once

#include <span>
#include <string>
#include <vector>

#include "orders/domain/events.h"
#include "orders/domain/order.h"
#include "orders/projection/keys.h"
#include "orders/projection/records.h"
#include "projection/applier.h"

namespace petstore::orders {

// The orders read model as projection::Projection folds it: each order
// folded with the domain's evolve and held as records.h says.
class OrdersModel {
 public:
  using Event = orders::Event;
  using State = Order;

  explicit OrdersModel(OrderKeys keys) : keys_(std::move(keys)) {}

  [[nodiscard]] const es::KeySpace& space() const { return keys_.space(); }
  [[nodiscard]] Event decode(const events::Envelope& envelope) const;
  [[nodiscard]] std::string key(const Event& e) const { return keys_.order(aggregate_of(e)); }
  [[nodiscard]] std::vector<projection::Command> reads(const std::vector<const Event*>& batch) const;
  [[nodiscard]] State state(const std::vector<const Event*>& batch,
                            std::span<const redis::Reply> replies) const;
  void evolve(State& s, const Event& e, std::int64_t version, const std::string& time) const;
  [[nodiscard]] projection::Record record(const State& s, const Event& /*e*/) const {
    return order_record(keys_, s);
  }

 private:
  OrderKeys keys_;
};

using OrdersProjection = projection::Projection<OrdersModel>;
using OrdersOwnEvents = projection::OwnEvents<OrdersModel>;

}  // namespace petstore::orders
