#include "app/order_commands.h"

#include <spdlog/spdlog.h>

#include "events/envelope.h"

namespace petstore::orders {

OrderCommands::OrderCommands(es::CommandPath& path, ReadModel& read, OrdersProjection& projection,
                             OrderKeys keys, std::string topic, std::chrono::milliseconds outcome_wait,
                             redis::ChannelWaiters& settled)
    : path_(path),
      read_(read),
      projection_(projection),
      keys_(std::move(keys)),
      topic_(std::move(topic)),
      outcome_wait_(outcome_wait),
      settled_(settled) {}

void OrderCommands::commit(const Event& event, std::int64_t version, es::LockGuard* guard) {
  path_.commit({topic_, std::string(type_of(event)), std::to_string(aggregate_of(event)), version,
                encode(event), kSchemaVersion},
               guard, [&](redis::Connection& c, const events::Envelope& appended) {
                 return projection_.apply_own(c, appended);
               });
}

Order OrderCommands::place(std::int64_t id, const OrderFields& fields, bool resumed) {
  const auto event = decide_place(id, fields);
  if (resumed) {
    path_.catch_up_aggregate(topic_, id);
    if (read_.order(id)) {
      return await_outcome(id);
    }
  }
  commit(event, 1, nullptr);
  return await_outcome(id);
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

void OrderCommands::change(std::int64_t id, const Decide& decide) {
  es::LockGuard guard(path_.locks(), path_.lock(keys_.order_lock(id), topic_, id));
  const auto order = read_.require_order(id);
  if (const auto event = decide(order)) {
    commit(*event, order.version + 1, &guard);
  }
}

Order OrderCommands::complete(std::int64_t id, const std::optional<std::string>& ship_date,
                              const Precondition& precondition) {
  const auto when = ship_date.value_or(events::format_time(std::chrono::system_clock::now()));
  change(id, [&](const Order& order) -> std::optional<Event> {
    precondition(order.version);
    if (auto e = decide_complete(order, when)) {
      return *e;
    }
    return std::nullopt;
  });
  return read_.require_order(id);
}

Order OrderCommands::cancel(std::int64_t id, const Precondition& precondition) {
  change(id, [&](const Order& order) -> std::optional<Event> {
    precondition(order.version);
    if (auto e = decide_cancel(order)) {
      return *e;
    }
    return std::nullopt;
  });
  return read_.require_order(id);
}

void OrderCommands::record_outcome(const StockOutcome& outcome) {
  if (!read_.order(outcome.order_id)) {
    // The inventory can answer before this order's own placement reached the
    // read model (the placing replica applies it right after the log acks).
    path_.catch_up_aggregate(topic_, outcome.order_id);
    if (!read_.order(outcome.order_id)) {
      spdlog::error("orders: stock outcome for unknown order {} ignored", outcome.order_id);
      return;
    }
  }
  change(outcome.order_id, [&](const Order& order) { return decide_outcome(order, outcome); });
}

}  // namespace petstore::orders
