#include "projection/orders_projection.h"

#include "embedded/apply.lua.h"
#include "util/overloaded.h"

namespace petstore::orders {

OrdersProjection::OrdersProjection(OrderKeys keys)
    : ScriptApplier(keys.space(), kOrdersApplyLua, "orders"), keys_(std::move(keys)) {}

std::vector<std::string> OrdersProjection::arguments(const Event& event, std::int64_t version,
                                                     const std::string& time) const {
  std::string ship;
  std::string reason;
  std::visit(Overloaded{
                 [&](const OrderPlaced& e) { ship = e.ship_date.value_or(""); },
                 [&](const OrderCompleted& e) { ship = e.ship_date; },
                 [&](const OrderRejected& e) { reason = to_string(e.reason); },
                 [&](const auto&) {},
             },
             event);
  const auto [pet, quantity] =
      std::visit([](const auto& e) { return std::pair(e.pet_id, e.quantity); }, event);
  return {std::string(type_of(event)),
          std::to_string(aggregate_of(event)),
          std::to_string(version),
          time,
          std::to_string(pet),
          std::to_string(quantity),
          std::move(ship),
          std::move(reason)};
}

std::vector<std::string> OrdersProjection::event_arguments(const events::Envelope& envelope) const {
  const auto event = projection::decode_own_event(envelope, decode, aggregate_of);
  return arguments(event, envelope.version, envelope.time);
}

es::ApplyOutcome OrdersProjection::apply_own(redis::Connection& conn, const Event& event,
                                             const events::Envelope& envelope) const {
  return ScriptApplier::apply_own(conn, envelope, arguments(event, envelope.version, envelope.time));
}

}  // namespace petstore::orders
