#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "inventory/domain/item.h"
#include "inventory/projection/keys.h"
#include "readmodel/history.h"
#include "readmodel/list_page.h"
#include "redis/multiplexer.h"

namespace petstore::inventory {

// Queries against the inventory read model, one round trip each.
class ReadModel {
 public:
  ReadModel(redis::Multiplexer& reads, InventoryKeys keys);

  // A tracked entry, or 404 inventory_item_not_found.
  Item require_item(std::int64_t pet_id);
  // The aggregate's events (CloudEvents JSON) after version `page.after`; 404
  // when no event names it. Kept after a deletion.
  readmodel::Page<std::string> item_history(std::int64_t id, const readmodel::PageRequest& page);
  readmodel::Page<Item> items(std::optional<PetStatus> status, const readmodel::PageRequest& page);
  // Tracked entries per status, every status present (0 when none).
  std::map<PetStatus, std::int64_t> summary();

 private:
  redis::Multiplexer& reads_;
  InventoryKeys keys_;
  readmodel::Lister lister_;
};

}  // namespace petstore::inventory
