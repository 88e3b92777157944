#pragma once

#include <cstdint>
#include <string>

#include "es/aggregate_writer.h"
#include "events/envelope.h"
#include "inventory/domain/events.h"
#include "inventory/domain/evolve.h"

namespace petstore::inventory {

// A pet's stock ledger as the inventory topic's single writer knows it
// (es::AggregateWriter, docs/consistency.md): the domain's own fold of its
// events, with what it recorded for each order, which is what makes every
// saga step idempotent against the log.
struct LedgerTraits {
  using State = Ledger;
  using Event = inventory::Event;
  // Ledgers are keyed by pet id and never created with an id of their own.
  static constexpr std::int64_t kIdClass = 3;

  static Event decode(const events::Envelope& env) { return inventory::decode(env.type, env.data); }
  static void evolve(State& ledger, const Event& e, std::int64_t version, const std::string& time) {
    inventory::evolve(ledger, e, version, time);
  }
  static es::EventParts parts(const Event& e) { return {std::string(type_of(e)), encode(e), kSchemaVersion}; }
  // What the write path folds `e` from (es::AggregateWriter::Outcome::before):
  // the item and the one order it names, as the projection reads them back,
  // not every order the pet ever had.
  static State before(const State& ledger, const Event& e) {
    State out{ledger.item, {}};
    if (const auto order = order_of(e)) {
      if (const auto it = ledger.orders.find(*order); it != ledger.orders.end()) {
        out.orders.insert(*it);
      }
    }
    return out;
  }
};
static_assert(es::AggregateTraits<LedgerTraits>);

using LedgerWriter = es::AggregateWriter<LedgerTraits>;

}  // namespace petstore::inventory
