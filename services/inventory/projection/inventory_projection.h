#pragma once

#include <span>
#include <string>
#include <vector>

#include "inventory/domain/events.h"
#include "inventory/domain/evolve.h"
#include "inventory/projection/keys.h"
#include "inventory/projection/records.h"
#include "projection/applier.h"

namespace petstore::inventory {

// The inventory read model as projection::Projection folds it: each stock
// ledger folded with the domain's evolve and held as records.h says. The
// fold reads, of a ledger's reservations, those of the orders the batch
// names.
class InventoryModel {
 public:
  using Event = inventory::Event;
  using State = Ledger;

  explicit InventoryModel(InventoryKeys keys) : keys_(std::move(keys)) {}

  [[nodiscard]] const es::KeySpace& space() const { return keys_.space(); }
  [[nodiscard]] Event decode(const events::Envelope& envelope) const;
  [[nodiscard]] std::string key(const Event& e) const { return keys_.item(aggregate_of(e)); }
  [[nodiscard]] std::vector<projection::Command> reads(const std::vector<const Event*>& batch) const;
  [[nodiscard]] State state(const std::vector<const Event*>& batch,
                            std::span<const redis::Reply> replies) const;
  void evolve(State& s, const Event& e, std::int64_t version, const std::string& time) const;
  [[nodiscard]] projection::Record record(const State& s, const Event& /*e*/) const {
    return ledger_record(keys_, s);
  }

 private:
  InventoryKeys keys_;
};

using InventoryProjection = projection::Projection<InventoryModel>;
using InventoryOwnEvents = projection::OwnEvents<InventoryModel>;

}  // namespace petstore::inventory
