#pragma once

#include <cstdint>
#include <functional>

#include "inventory/app/ledgers.h"

namespace petstore::inventory {

// Checks a client's If-Match against the ledger's version.
using Precondition = std::function<void(std::int64_t current_version)>;

// InventoryUpdate: sets a pet's units on hand. Returns the entry as its
// owner folded it afterwards.
class StockCommands {
 public:
  explicit StockCommands(Ledgers& ledger) : ledger_(ledger) {}
  Item set_quantity(std::int64_t pet_id, std::int64_t quantity, const Precondition& precondition);

 private:
  Ledgers& ledger_;
};

}  // namespace petstore::inventory
