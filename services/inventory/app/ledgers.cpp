#include "app/ledgers.h"

namespace petstore::inventory {

Item Ledgers::change(std::int64_t pet_id, std::int64_t order_id, const Decide& decide) {
  const auto outcome =
      writer_.execute(pet_id, [&](const LedgerWriter::Current& current) -> std::optional<Event> {
        static const Reservation none{};
        const auto it = current.state.orders.find(order_id);
        auto item = current.state.item;
        item.pet_id = pet_id;  // a ledger with no events yet
        return decide(item, it == current.state.orders.end() ? none : it->second);
      });
  own_.apply(outcome.appended);
  auto item = outcome.state.item;
  item.pet_id = pet_id;
  return item;
}

}  // namespace petstore::inventory
