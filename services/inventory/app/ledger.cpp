#include "app/ledger.h"

namespace petstore::inventory {

Ledger::Ledger(es::CommandPath& path, ReadModel& read, InventoryProjection& projection, InventoryKeys keys,
               std::string topic)
    : path_(path), read_(read), projection_(projection), keys_(std::move(keys)), topic_(std::move(topic)) {}

void Ledger::change(std::int64_t pet_id, std::int64_t order_id, const Decide& decide) {
  es::LockGuard guard(path_.locks(), path_.lock(keys_.item_lock(pet_id), topic_, pet_id));
  const auto [item, recorded] = read_.ledger(pet_id, order_id);
  const auto event = decide(item, recorded);
  if (!event) {
    return;
  }
  const auto version = item.version + 1;
  path_.commit(
      {topic_, std::string(type_of(*event)), std::to_string(pet_id), version, encode(*event), kSchemaVersion},
      &guard, [&](redis::Connection& c, const events::Envelope& appended) {
        return projection_.apply_own(c, appended);
      });
}

}  // namespace petstore::inventory
