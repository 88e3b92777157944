#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "inventory/app/writer.h"
#include "inventory/domain/events.h"
#include "inventory/domain/item.h"
#include "inventory/projection/inventory_projection.h"
#include "projection/applier.h"
#include "projection/reactor.h"
#include "trace/context.h"

namespace petstore::inventory {

// The inventory's write path: every change to a pet's stock ledger, whether
// from an InventoryUpdate or a saga step, runs on the replica that owns the
// ledger's partition of the inventory topic (es::Errc::NotOwner elsewhere,
// which the edge and the saga's relay forward), decides from that owner's
// fold of the log, and applies its event to the read model before it
// returns.
class Ledgers {
 public:
  Ledgers(LedgerWriter& writer, const InventoryOwnEvents& own) : writer_(writer), own_(own) {}

  // `decide` gets the ledger and the reservation recorded for `order_id`
  // (0: none) and returns the event to record, if any. Returns the entry
  // after the change.
  using Decide = std::function<std::optional<Event>(const Item&, const Reservation&)>;
  Item change(std::int64_t pet_id, std::int64_t order_id, const Decide& decide);
  // change() up to its event's delivery report (es::AggregateWriter::begin):
  // the ledger's next change may be decided meanwhile. The function
  // returned reads the event back, applies it, and gives the entry.
  std::function<Item()> begin(std::int64_t pet_id, std::int64_t order_id, const Decide& decide);

  // begin() of many ledgers' changes at once (es::AggregateWriter::begin_each):
  // failed[i] is what change i threw, or null; `rest` reads every change
  // begun back and applies them all.
  struct Change {
    std::int64_t pet_id = 0;
    std::int64_t order_id = 0;
    Decide decide;
    trace::Context trace;  // the step's span (projection::Reaction::Step)
  };
  projection::Reaction::BegunEach begin_each(const std::vector<Change>& changes);

 private:
  // `decide` as the writer asks it: on the ledger's entry and `order_id`'s reservation.
  static LedgerWriter::Decide on_ledger(std::int64_t pet_id, std::int64_t order_id, const Decide& decide);

  LedgerWriter& writer_;
  const InventoryOwnEvents& own_;
};

}  // namespace petstore::inventory
