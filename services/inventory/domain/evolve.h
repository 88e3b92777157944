#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "inventory/domain/events.h"
#include "inventory/domain/item.h"

namespace petstore::inventory {

// One pet's stock ledger as a pure fold of its events, with what it recorded
// for each order: what the read model holds (the projection folds with it)
// and an auditor replays (tools/petstore-audit).
struct Ledger {
  Item item;
  std::map<std::int64_t, Reservation> orders;
};

// An event whose version is not above the ledger's is a duplicate and changes
// nothing; returns whether it was applied. A release or
// consumption returns the units the order actually holds (none if it holds
// no reservation); judging such an event is the audit's job.
bool evolve(Ledger& ledger, const Event& event, std::int64_t version, const std::string& time);

}  // namespace petstore::inventory
