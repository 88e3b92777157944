#include "inventory/projection/inventory_projection.h"

#include <optional>
#include <set>

namespace petstore::inventory {
namespace {

// The orders `batch` names, in ascending order.
std::set<std::int64_t> orders_of(const std::vector<const Event*>& batch) {
  std::set<std::int64_t> out;
  for (const auto* e : batch) {
    if (const auto order = order_of(*e)) {
      out.insert(*order);
    }
  }
  return out;
}

}  // namespace

Event InventoryModel::decode(const events::Envelope& envelope) const {
  return projection::decode_own_event(envelope, inventory::decode, aggregate_of);
}

std::vector<projection::Command> InventoryModel::reads(const std::vector<const Event*>& batch) const {
  const auto pet = aggregate_of(*batch.front());
  std::vector<projection::Command> out{projection::hmget(keys_.item(pet), kItemFields)};
  const auto orders = orders_of(batch);
  if (!orders.empty()) {
    projection::Command reservations{"HMGET", keys_.reservations(pet)};
    for (const auto order : orders) {
      reservations.push_back(std::to_string(order));
    }
    out.push_back(std::move(reservations));
  }
  return out;
}

InventoryModel::State InventoryModel::state(const std::vector<const Event*>& batch,
                                            std::span<const redis::Reply> replies) const {
  Ledger ledger;
  ledger.item = item_from(aggregate_of(*batch.front()), replies[0]->element);
  const auto orders = orders_of(batch);
  std::size_t i = 0;
  for (const auto order : orders) {
    if (auto reservation = reservation_from(*replies[1]->element[i++])) {
      ledger.orders.emplace(order, *reservation);
    }
  }
  return ledger;
}

void InventoryModel::evolve(State& s, const Event& e, std::int64_t version, const std::string& time) const {
  (void)inventory::evolve(s, e, version, time);
}

}  // namespace petstore::inventory
