#include "inventory/domain/upstream.h"

#include "json/event_fields.h"

namespace petstore::inventory {

std::optional<PetFact> read_pet_fact(const events::Envelope& e) {
  PetFact fact;
  if (e.type == "io.petstore.pet.created") {
    fact.kind = PetFact::Kind::Appeared;
  } else if (e.type == "io.petstore.pet.updated" || e.type == "io.petstore.pet.status_changed") {
    fact.kind = PetFact::Kind::Changed;
  } else if (e.type == "io.petstore.pet.deleted") {
    fact.kind = PetFact::Kind::Deleted;
  } else {
    return std::nullopt;
  }
  const json::EventFields f(e.data);
  fact.pet_id = e.aggregate_id();
  fact.pet_version = e.version;
  if (fact.kind != PetFact::Kind::Deleted) {
    // pet.status_changed carries the new status as "to"; the others as "status".
    const char* field = e.type == "io.petstore.pet.status_changed" ? "to" : "status";
    fact.status = f.enumeration(field, [](const std::string& s) { return parse_status(s); });
  }
  return fact;
}

std::optional<OrderFact> read_order_fact(const events::Envelope& e) {
  OrderFact fact;
  if (e.type == "io.petstore.order.placed") {
    fact.kind = OrderFact::Kind::Placed;
  } else if (e.type == "io.petstore.order.cancelled") {
    fact.kind = OrderFact::Kind::Cancelled;
  } else if (e.type == "io.petstore.order.completed") {
    fact.kind = OrderFact::Kind::Completed;
  } else {
    return std::nullopt;
  }
  const json::EventFields f(e.data);
  fact.order_id = e.aggregate_id();
  fact.pet_id = f.integer("petId");
  fact.quantity = f.integer("quantity");
  return fact;
}

}  // namespace petstore::inventory
