// The inventory service in `as-of` and `rebuild` (view_module.h): a stock
// ledger as its domain folds it, and the read model its projection writes.
#include "inventory/domain/events.h"
#include "inventory/domain/evolve.h"
#include "inventory/projection/inventory_projection.h"
#include "json/writer.h"
#include "kind_module.h"
#include "view_module.h"

namespace petstore::inventory {
namespace {

std::string as_of(const std::vector<audit::AuditEvent>& events) {
  const auto l =
      audit::fold_events<Ledger>(events, [](std::string_view t, std::string_view d) { return decode(t, d); });
  if (l.item.version == 0) {
    return "null";
  }
  const auto& i = l.item;
  json::Writer w;
  w.begin_object()
      .field("petId", i.pet_id)
      .field("tracked", i.tracked)
      .field("petStatus", to_string(i.pet_status));
  w.field("quantity", i.quantity).field("reserved", i.reserved).field("status", to_string(i.status));
  w.field("version", i.version).field("updatedAt", i.updated_at);
  w.key("orders").begin_object();
  for (const auto& [order, r] : l.orders) {
    w.key(std::to_string(order))
        .begin_object()
        .field("state", to_string(r.state))
        .field("quantity", r.quantity)
        .end_object();
  }
  w.end_object().end_object();
  return w.finish();
}

audit::ReadModel read_model(const std::string& prefix) {
  InventoryKeys keys(prefix);
  return {"inventory", std::make_unique<InventoryProjection>(InventoryModel(keys)),
          InventoryKeys::not_from_log(), "", ""};
}

}  // namespace

const audit::ViewModule& audit_views() {
  static const audit::ViewModule kViews{{"inventory"}, as_of, read_model};
  return kViews;
}

}  // namespace petstore::inventory
