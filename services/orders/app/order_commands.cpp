#include "orders/app/order_commands.h"

#include <thread>

#include "events/envelope.h"
#include "log/log.h"
#include "orders/domain/errors.h"
#include "redis/connection.h"
#include "trace/context.h"

namespace petstore::orders {
namespace {

DomainError not_found(std::int64_t id) {
  return {DomainError::Kind::NotFound, codes::kOrderNotFound,
          "order " + std::to_string(id) + " does not exist"};
}

}  // namespace

OrderCommands::OrderCommands(OrderWriter& writer, const OrdersOwnEvents& own, ReadModel& read,
                             AnswerWait wait)
    : writer_(writer), own_(own), read_(read), wait_(wait) {}

Order OrderCommands::place(const OrderFields& fields, const std::string& request) {
  // The ticket is taken as the id is chosen, before the placement is
  // appended, so the answer the append causes cannot come before it. An
  // attempt the writer retries chooses again; the last choice is the order.
  std::optional<Settled::Ticket> ticket;
  const auto outcome = writer_.create(request, [&](std::int64_t id) {
    ticket.emplace(settled_.expect(id));
    return decide_place(id, fields);
  });
  own_.apply(outcome);
  if (outcome.appended.empty() && outcome.state.status != OrderStatus::Placed) {
    return outcome.state;  // a repeated placement, answered long ago: as the log has it now
  }
  // A repeated placement still waiting for its answer takes its ticket now,
  // and looks once in case the answer came before.
  const bool placed_here = !outcome.appended.empty() && ticket && ticket->key() == outcome.id;
  if (!placed_here) {
    ticket.emplace(settled_.expect(outcome.id));
  }
  return await_outcome(*ticket, !placed_here, outcome.state);
}

Order OrderCommands::await_outcome(Settled::Ticket& ticket, bool look_first, const Order& placed) {
  const auto id = ticket.key();
  // The answer is recorded on this replica, the order's owner (change()
  // offers it), unless the partition has changed hands since the
  // placement: then the new owner records it, and the read model shows it.
  // The placement is committed: a read model that does not answer now
  // makes no 503 of it (docs/consistency.md, "Say what happened").
  const auto look = [&]() -> std::optional<Order> {
    try {
      if (auto order = read_.order(id); order && order->status != OrderStatus::Placed) {
        return order;
      }
    } catch (const redis::Unavailable& e) {
      log::warn("orders: order {} is placed; its outcome is not readable now ({})", id, e.what());
    }
    return std::nullopt;
  };
  if (look_first) {
    if (auto order = look()) {
      return *std::move(order);
    }
  }
  auto order = ticket.wait_until(std::chrono::steady_clock::now() + wait_.total, wait_.recheck, look);
  return order ? *std::move(order) : placed;  // late: still placed, as committed
}

Order OrderCommands::change(std::int64_t id, const Precondition& precondition, const Decide& decide) {
  const auto until = std::chrono::steady_clock::now() + wait_.total;
  for (;;) {
    try {
      return settle(writer_.execute(id, [&](const OrderWriter::Current& current) -> std::optional<Event> {
        if (current.version == 0) {
          throw not_found(id);
        }
        // A refusal that lifts once the inventory answers comes before the
        // client's precondition, which may name the version the answer
        // makes (the placing request was told it).
        std::optional<Event> event;
        std::exception_ptr refused;
        try {
          event = decide(current.state);
        } catch (const DomainError& e) {
          if (e.kind() == DomainError::Kind::NotYet) {
            throw;
          }
          refused = std::current_exception();
        }
        precondition(current.version);
        if (refused) {
          std::rethrow_exception(refused);
        }
        return event;
      }));
    } catch (const DomainError& e) {
      if (e.kind() != DomainError::Kind::NotYet || std::chrono::steady_clock::now() >= until) {
        throw;
      }
    }
    std::this_thread::sleep_for(wait_.recheck);
  }
}

Order OrderCommands::settle(const OrderWriter::Outcome& outcome) {
  own_.apply(outcome);
  if (outcome.state.status != OrderStatus::Placed) {
    // Applied first: the client may read it anywhere once answered.
    settled_.offer(outcome.id, outcome.state);
  }
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

void OrderCommands::record_outcome(const StockOutcome& outcome, const events::Envelope& answer) {
  // The outcome takes its identity and its trace from the answer: whichever
  // replica decides it, and however often, it is the same event.
  const auto id = outcome_event_id(answer.id);
  const auto cause = trace::parse(answer.traceparent, answer.tracestate);
  const OrderWriter::Command record{outcome.order_id,
                                    [&](const OrderWriter::Current& current) -> std::optional<Event> {
                                      if (current.version == 0) {
                                        throw not_found(outcome.order_id);
                                      }
                                      return decide_outcome(current.state, outcome);
                                    },
                                    {},
                                    cause ? trace::child(*cause, id) : trace::start(id),
                                    {id, answer.time}};
  announce(record);
  try {
    settle(writer_.execute(record));
  } catch (const DomainError& e) {
    // The owner folded its whole partition, so an order it does not know was
    // never placed: the inventory answered a record no orders replica wrote.
    log::error("orders: stock outcome for order {} ignored: {}", outcome.order_id, e.what());
  }
}

void OrderCommands::announce(const OrderWriter::Command& record) {
  // Nothing but this answer moves a placed order (decide_complete,
  // decide_cancel), and the answer is committed: the outcome is bound to
  // be this event, so the read model and the waiting request may have it
  // before its own transaction (docs/saga.md, "What the client sees").
  std::optional<Order> order;
  try {
    order = read_.order(record.id);
  } catch (const redis::Unavailable& e) {
    log::warn("orders: order {} is not readable now ({}); its outcome is told once appended", record.id,
              e.what());
    return;
  }
  if (!order) {
    return;
  }
  if (order->status != OrderStatus::Placed) {
    // Announced already, by the replica that relayed the answer here.
    settled_.offer(record.id, *order);
    return;
  }
  if (const auto foreseen = writer_.foresee(record, {*order, order->version})) {
    settle(*foreseen);
  }
}

}  // namespace petstore::orders
