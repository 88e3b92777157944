// The orders service in `as-of` and `rebuild` (view_module.h): an order as
// its domain folds it, and the read model its projection writes.
#include "json/writer.h"
#include "kind_module.h"
#include "orders/domain/events.h"
#include "orders/domain/evolve.h"
#include "orders/projection/orders_projection.h"
#include "view_module.h"

namespace petstore::orders {
namespace {

std::string as_of(const std::vector<audit::AuditEvent>& events) {
  const auto o =
      audit::fold_events<Order>(events, [](std::string_view t, std::string_view d) { return decode(t, d); });
  if (o.version == 0) {
    return "null";
  }
  json::Writer w;
  w.begin_object().field("id", o.id).field("petId", o.pet_id).field("quantity", o.quantity);
  w.optional_field("shipDate", o.ship_date)
      .field("status", to_string(o.status))
      .field("complete", o.complete());
  if (o.rejection) {
    w.field("rejection", to_string(*o.rejection));
  }
  w.field("version", o.version)
      .field("createdAt", o.created_at)
      .field("updatedAt", o.updated_at)
      .end_object();
  return w.finish();
}

audit::ReadModel read_model(const std::string& prefix) {
  OrderKeys keys(prefix);
  return {"orders", std::make_unique<OrdersProjection>(OrdersModel(keys)), OrderKeys::not_from_log(), "", ""};
}

}  // namespace

const audit::ViewModule& audit_views() {
  static const audit::ViewModule kViews{{"order"}, as_of, read_model};
  return kViews;
}

}  // namespace petstore::orders
