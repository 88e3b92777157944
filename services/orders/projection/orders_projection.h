#pragma once

#include "orders/domain/events.h"
#include "orders/projection/keys.h"
#include "projection/script_applier.h"

namespace petstore::orders {

// Applies orders-service events to Redis with projection/apply.lua: from the log (as the
// projection's Applier) and, on the write path, a command's own event right
// after the log acknowledged it (ScriptApplier::apply_own). The script reads
// the event itself; adding a field to an event touches the domain's codec
// and this script, nothing here.
class OrdersProjection : public projection::DomainProjection<Event> {
 public:
  explicit OrdersProjection(const OrderKeys& keys);
};

}  // namespace petstore::orders
