#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "domain/events.h"
#include "domain/item.h"
#include "es/command_path.h"
#include "projection/inventory_projection.h"
#include "projection/keys.h"
#include "projection/read_model.h"

namespace petstore::inventory {

// The inventory's write path: every change to a pet's stock ledger, whether
// from an InventoryUpdate or a saga step, decides under the ledger's lock on
// the state the read model shows and commits the event through the shared
// command path, so the next decision (on any replica) sees it.
class Ledger {
 public:
  Ledger(es::CommandPath& path, ReadModel& read, InventoryProjection& projection, InventoryKeys keys,
         std::string topic);

  // `decide` gets the ledger and the reservation recorded for `order_id`
  // (0: none) and returns the event to record, if any.
  using Decide = std::function<std::optional<Event>(const Item&, const Reservation&)>;
  void change(std::int64_t pet_id, std::int64_t order_id, const Decide& decide);

  ReadModel& read() { return read_; }

 private:
  es::CommandPath& path_;
  ReadModel& read_;
  InventoryProjection& projection_;
  InventoryKeys keys_;
  std::string topic_;
};

}  // namespace petstore::inventory
