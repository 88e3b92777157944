#include "app/ledgers.h"

#include <memory>

namespace petstore::inventory {

Item Ledgers::change(std::int64_t pet_id, std::int64_t order_id, const Decide& decide) {
  return begin(pet_id, order_id, decide)();
}

std::function<Item()> Ledgers::begin(std::int64_t pet_id, std::int64_t order_id, const Decide& decide) {
  // Shared: std::function copies what it holds, and a pending append holds
  // its partition's writer.
  auto pending = std::make_shared<LedgerWriter::Pending>(
      writer_.begin(pet_id, [&](const LedgerWriter::Current& current) -> std::optional<Event> {
        static const Reservation none{};
        const auto it = current.state.orders.find(order_id);
        auto item = current.state.item;
        item.pet_id = pet_id;  // a ledger with no events yet
        return decide(item, it == current.state.orders.end() ? none : it->second);
      }));
  return [this, pending, pet_id] {
    const auto outcome = std::move(*pending).finish();
    own_.apply(outcome.appended);
    auto item = outcome.state.item;
    item.pet_id = pet_id;
    return item;
  };
}

}  // namespace petstore::inventory
