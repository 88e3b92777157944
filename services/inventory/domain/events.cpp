#include "inventory/domain/events.h"

#include <stdexcept>

#include "json/event_fields.h"
#include "json/writer.h"
#include "util/overloaded.h"

namespace petstore::inventory {
namespace {

PetStatus status_field(const json::EventFields& f, const char* name) {
  return f.enumeration(name, [](const std::string& s) { return parse_status(s); });
}

void order_fields(json::Writer& w, std::int64_t pet, std::int64_t order, std::int64_t quantity) {
  w.field("petId", pet).field("orderId", order).field("quantity", quantity);
}

}  // namespace

std::int64_t aggregate_of(const Event& e) {
  return std::visit([](const auto& ev) { return ev.pet_id; }, e);
}

std::optional<std::int64_t> order_of(const Event& e) {
  return std::visit(
      [](const auto& ev) -> std::optional<std::int64_t> {
        if constexpr (requires { ev.order_id; }) {
          return ev.order_id;
        } else {
          return std::nullopt;
        }
      },
      e);
}

std::string encode(const Event& e) {
  json::Writer w;
  w.begin_object();
  std::visit(
      Overloaded{
          [&](const Tracked& ev) {
            w.field("petId", ev.pet_id).field("petStatus", to_string(ev.pet_status));
            w.field("petVersion", ev.pet_version);
          },
          [&](const PetStatusMirrored& ev) {
            w.field("petId", ev.pet_id).field("petStatus", to_string(ev.pet_status));
            w.field("petVersion", ev.pet_version);
          },
          [&](const Untracked& ev) { w.field("petId", ev.pet_id).field("petVersion", ev.pet_version); },
          [&](const StockSet& ev) { w.field("petId", ev.pet_id).field("quantity", ev.quantity); },
          [&](const Reserved& ev) { order_fields(w, ev.pet_id, ev.order_id, ev.quantity); },
          [&](const Refused& ev) {
            order_fields(w, ev.pet_id, ev.order_id, ev.quantity);
            w.field("reason", to_string(ev.reason));
          },
          [&](const Released& ev) { order_fields(w, ev.pet_id, ev.order_id, ev.quantity); },
          [&](const Consumed& ev) { order_fields(w, ev.pet_id, ev.order_id, ev.quantity); },
      },
      e);
  w.end_object();
  return w.finish();
}

Event decode(std::string_view type, std::string_view data) {
  return decode(type, json::EventFields(data));
}

Event decode(std::string_view type, const json::EventFields& f) {
  const auto pet = f.integer("petId");
  if (type == Tracked::kType) {
    return Tracked{pet, status_field(f, "petStatus"), f.integer("petVersion")};
  }
  if (type == PetStatusMirrored::kType) {
    return PetStatusMirrored{pet, status_field(f, "petStatus"), f.integer("petVersion")};
  }
  if (type == Untracked::kType) {
    return Untracked{pet, f.integer("petVersion")};
  }
  if (type == StockSet::kType) {
    return StockSet{pet, f.integer("quantity")};
  }
  if (type == Reserved::kType) {
    return Reserved{pet, f.integer("orderId"), f.integer("quantity")};
  }
  if (type == Refused::kType) {
    return Refused{pet, f.integer("orderId"), f.integer("quantity"),
                   f.enumeration("reason", [](const std::string& s) { return parse_refusal(s); })};
  }
  if (type == Released::kType) {
    return Released{pet, f.integer("orderId"), f.integer("quantity")};
  }
  if (type == Consumed::kType) {
    return Consumed{pet, f.integer("orderId"), f.integer("quantity")};
  }
  throw std::invalid_argument("unknown event type " + std::string(type));
}

}  // namespace petstore::inventory
