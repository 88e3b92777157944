#include "app/order_commands.h"

#include <spdlog/spdlog.h>

#include "domain/errors.h"
#include "events/envelope.h"

namespace petstore::orders {
namespace {

DomainError not_found(std::int64_t id) {
  return {DomainError::Kind::NotFound, codes::kOrderNotFound,
          "order " + std::to_string(id) + " does not exist"};
}

}  // namespace

OrderCommands::OrderCommands(OrderWriter& writer, const projection::OwnEvents& own, ReadModel& read,
                             std::chrono::milliseconds outcome_wait, redis::ChannelWaiters& settled)
    : writer_(writer), own_(own), read_(read), outcome_wait_(outcome_wait), settled_(settled) {}

Order OrderCommands::place(const OrderFields& fields, const std::string& request) {
  const auto outcome = writer_.create(request, [&](std::int64_t id) { return decide_place(id, fields); });
  own_.apply(outcome.appended);
  if (outcome.appended.empty() && outcome.state.status != OrderStatus::Placed) {
    return outcome.state;  // a repeated placement, answered long ago: as the log has it now
  }
  return await_outcome(outcome.id);
}

Order OrderCommands::await_outcome(std::int64_t id) {
  // Woken when the answer is applied (apply.lua publishes the id), not by
  // polling: the answer is seen as soon as it is in the read model.
  std::optional<Order> order;
  settled_.wait_until(std::to_string(id), std::chrono::steady_clock::now() + outcome_wait_, [&] {
    order = read_.order(id);
    return order && order->status != OrderStatus::Placed;
  });
  return order ? *std::move(order) : read_.require_order(id);
}

Order OrderCommands::change(std::int64_t id, const Precondition& precondition, const Decide& decide) {
  const auto outcome = writer_.execute(id, [&](const OrderWriter::Current& current) -> std::optional<Event> {
    if (current.version == 0) {
      throw not_found(id);
    }
    precondition(current.version);
    return decide(current.state);
  });
  own_.apply(outcome.appended);
  return outcome.state;
}

Order OrderCommands::complete(std::int64_t id, const std::optional<std::string>& ship_date,
                              const Precondition& precondition) {
  const auto when = ship_date.value_or(events::format_time(std::chrono::system_clock::now()));
  return change(id, precondition, [&](const Order& order) -> std::optional<Event> {
    if (auto e = decide_complete(order, when)) {
      return *e;
    }
    return std::nullopt;
  });
}

Order OrderCommands::cancel(std::int64_t id, const Precondition& precondition) {
  return change(id, precondition, [&](const Order& order) -> std::optional<Event> {
    if (auto e = decide_cancel(order)) {
      return *e;
    }
    return std::nullopt;
  });
}

void OrderCommands::record_outcome(const StockOutcome& outcome) {
  try {
    change(
        outcome.order_id, [](std::int64_t) {},
        [&](const Order& order) { return decide_outcome(order, outcome); });
  } catch (const DomainError& e) {
    // The owner folded its whole partition, so an order it does not know was
    // never placed: the inventory answered a record no orders replica wrote.
    spdlog::error("orders: stock outcome for order {} ignored: {}", outcome.order_id, e.what());
  }
}

}  // namespace petstore::orders
