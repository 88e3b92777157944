#pragma once

#include <cstdint>
#include <string>

#include "es/aggregate_writer.h"
#include "events/envelope.h"
#include "orders/domain/events.h"
#include "orders/domain/evolve.h"
#include "orders/domain/order.h"

namespace petstore::orders {

// An order as the orders topic's single writer knows it (es::AggregateWriter,
// docs/consistency.md): the domain's own fold of its events; version 0 (no
// order) before its placement.
struct OrderTraits {
  using State = Order;
  using Event = orders::Event;
  static constexpr std::int64_t kIdClass = 2;  // pets 0, categories 1, orders 2

  static Event decode(const events::Envelope& env) { return orders::decode(env.type, env.data); }
  static void evolve(State& order, const Event& e, std::int64_t version, const std::string& time) {
    orders::evolve(order, e, version, time);
  }
  static es::EventParts parts(const Event& e) { return {std::string(type_of(e)), encode(e), kSchemaVersion}; }
};
static_assert(es::AggregateTraits<OrderTraits>);

using OrderWriter = es::AggregateWriter<OrderTraits>;

}  // namespace petstore::orders
