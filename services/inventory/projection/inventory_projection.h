#pragma once

#include "inventory/domain/events.h"
#include "inventory/projection/keys.h"
#include "projection/script_applier.h"

namespace petstore::inventory {

// Applies inventory events (stock ledgers) to Redis with projection/apply.lua: from the log (as the
// projection's Applier) and, on the write path, a command's own event right
// after the log acknowledged it (ScriptApplier::apply_own). The script reads
// the event itself; adding a field to an event touches the domain's codec
// and this script, nothing here.
class InventoryProjection : public projection::DomainProjection<Event> {
 public:
  explicit InventoryProjection(const InventoryKeys& keys);
};

}  // namespace petstore::inventory
