#include "inventory/app/stock_commands.h"

#include "inventory/domain/decide.h"

namespace petstore::inventory {

Item StockCommands::set_quantity(std::int64_t pet_id, std::int64_t quantity,
                                 const Precondition& precondition) {
  return ledger_.change(pet_id, 0, [&](const Item& item, const Reservation&) -> std::optional<Event> {
    const auto event = decide_set_stock(item, quantity);  // 404 before 412
    precondition(item.version);
    if (event) {
      return *event;
    }
    return std::nullopt;
  });
}

}  // namespace petstore::inventory
