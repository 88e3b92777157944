#include "inventory/app/ledgers.h"

#include <iterator>
#include <memory>

namespace petstore::inventory {

Item Ledgers::change(std::int64_t pet_id, std::int64_t order_id, const Decide& decide) {
  return begin(pet_id, order_id, decide)();
}

LedgerWriter::Decide Ledgers::on_ledger(std::int64_t pet_id, std::int64_t order_id, const Decide& decide) {
  return [pet_id, order_id, &decide](const LedgerWriter::Current& current) -> std::optional<Event> {
    static const Reservation none{};
    const auto it = current.state.orders.find(order_id);
    auto item = current.state.item;
    item.pet_id = pet_id;  // a ledger with no events yet
    return decide(item, it == current.state.orders.end() ? none : it->second);
  };
}

std::function<Item()> Ledgers::begin(std::int64_t pet_id, std::int64_t order_id, const Decide& decide) {
  // Shared: std::function copies what it holds, and a pending append holds
  // its partition's writer.
  auto pending =
      std::make_shared<LedgerWriter::Pending>(writer_.begin(pet_id, on_ledger(pet_id, order_id, decide)));
  return [this, pending, pet_id] {
    const auto outcome = std::move(*pending).finish();
    own_.apply(outcome);
    auto item = outcome.state.item;
    item.pet_id = pet_id;
    return item;
  };
}

projection::Reaction::BegunEach Ledgers::begin_each(const std::vector<Change>& changes) {
  std::vector<LedgerWriter::Command> commands;
  commands.reserve(changes.size());
  for (const auto& c : changes) {
    commands.push_back({c.pet_id, on_ledger(c.pet_id, c.order_id, c.decide), {}, c.trace});
  }
  auto begun = writer_.begin_each(commands);
  projection::Reaction::BegunEach out{std::vector<std::exception_ptr>(changes.size()), {}};
  auto pending = std::make_shared<std::vector<LedgerWriter::Pending>>();
  for (std::size_t i = 0; i < begun.size(); ++i) {
    if (begun[i].failed) {
      out.failed[i] = begun[i].failed;
    } else {
      // begin_each gives every command either a failure or a pending append.
      pending->push_back(std::move(begun[i].pending).value());
    }
  }
  if (!pending->empty()) {
    out.rest = [this, pending] {
      std::vector<LedgerWriter::Outcome> outcomes;
      outcomes.reserve(pending->size());
      for (auto& p : *pending) {
        outcomes.push_back(std::move(p).finish());
      }
      own_.apply(outcomes);
    };
  }
  return out;
}

}  // namespace petstore::inventory
