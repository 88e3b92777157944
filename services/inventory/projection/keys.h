#pragma once

#include <cstdint>
#include <string>

#include "es/key_space.h"
#include "vocabulary/pet_status.h"

namespace petstore::inventory {

// Every Redis key of the inventory read model; records.h says what each holds.
class InventoryKeys {
 public:
  explicit InventoryKeys(const std::string& prefix) : space_(prefix, "inventory") {}

  [[nodiscard]] const es::KeySpace& space() const { return space_; }
  [[nodiscard]] const std::string& base() const { return space_.base(); }
  [[nodiscard]] std::string offsets() const { return space_.offsets(); }

  [[nodiscard]] std::string item_prefix() const { return space_.key("item:"); }
  [[nodiscard]] std::string item(std::int64_t pet) const { return item_prefix() + std::to_string(pet); }
  // order id -> what the ledger recorded for it, "<reserved|refused|released|consumed>:<units>"
  [[nodiscard]] std::string reservations(std::int64_t pet) const { return item(pet) + ":orders"; }
  // Sorted sets (score = pet id) of tracked entries, for cursor-paginated lists.
  [[nodiscard]] std::string all_items() const { return space_.key("items:all"); }
  [[nodiscard]] std::string items_by_status(PetStatus s) const {
    return space_.key("items:s:" + std::string(to_string(s)));
  }
  // status -> number of tracked entries in it (GET /store/inventory)
  [[nodiscard]] std::string counts() const { return space_.key("items:counts"); }
  // Only the shared write-path keys (idempotency, owner hints, positions).
  [[nodiscard]] static es::NotFromLog not_from_log() { return {}; }

 private:
  es::KeySpace space_;
};

}  // namespace petstore::inventory
