#include "orders/domain/events.h"

#include <stdexcept>

#include "json/event_fields.h"
#include "json/writer.h"
#include "util/overloaded.h"

namespace petstore::orders {

std::int64_t aggregate_of(const Event& e) {
  return std::visit([](const auto& ev) { return ev.id; }, e);
}

std::string encode(const Event& e) {
  json::Writer w;
  w.begin_object();
  std::visit(
      [&](const auto& ev) { w.field("id", ev.id).field("petId", ev.pet_id).field("quantity", ev.quantity); },
      e);
  std::visit(Overloaded{
                 [&](const OrderPlaced& ev) { w.optional_field("shipDate", ev.ship_date); },
                 [&](const OrderRejected& ev) { w.field("reason", to_string(ev.reason)); },
                 [&](const OrderCompleted& ev) { w.field("shipDate", ev.ship_date); },
                 [&](const auto&) {},
             },
             e);
  w.end_object();
  return w.finish();
}

Event decode(std::string_view type, std::string_view data) {
  return decode(type, json::EventFields(data));
}

Event decode(std::string_view type, const json::EventFields& f) {
  const auto id = f.integer("id");
  const auto pet = f.integer("petId");
  const auto quantity = f.integer("quantity");
  if (type == OrderPlaced::kType) {
    return OrderPlaced{id, pet, quantity, f.optional_text("shipDate")};
  }
  if (type == OrderReserved::kType) {
    return OrderReserved{id, pet, quantity};
  }
  if (type == OrderRejected::kType) {
    return OrderRejected{id, pet, quantity,
                         f.enumeration("reason", [](const std::string& s) { return parse_refusal(s); })};
  }
  if (type == OrderCompleted::kType) {
    return OrderCompleted{id, pet, quantity, f.text("shipDate")};
  }
  if (type == OrderCancelled::kType) {
    return OrderCancelled{id, pet, quantity};
  }
  throw std::invalid_argument("unknown event type " + std::string(type));
}

}  // namespace petstore::orders
