#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "orders/app/writer.h"
#include "orders/domain/decide.h"
#include "orders/domain/order.h"
#include "orders/projection/orders_projection.h"
#include "orders/projection/read_model.h"
#include "projection/applier.h"
#include "util/rendezvous.h"

namespace petstore::orders {

// Checks a client's If-Match against the order's version.
using Precondition = std::function<void(std::int64_t current_version)>;

// How a placing request waits for its order's answer (README, "Configuration").
struct AnswerWait {
  // In all, before it answers with the order still placed (202):
  // ORDER_OUTCOME_WAIT_MS.
  std::chrono::milliseconds total{3000};
  // How often it looks at the read model meanwhile, for an answer recorded
  // by another replica (the order's partition changed hands after the
  // placement): ORDER_ANSWER_RECHECK_MS. An answer recorded here is handed
  // over at once, whatever this is.
  std::chrono::milliseconds recheck{50};
};

// The order use cases and the order's side of the saga, on the orders
// topic's single writer (OrderWriter): each runs on the replica that owns
// the order's partition (es::Errc::NotOwner elsewhere, which the edge and
// the saga's relay forward), decides from that owner's fold of the log, and
// applies its event to the read model before answering.
class OrderCommands {
 public:
  OrderCommands(OrderWriter& writer, const OrdersOwnEvents& own, ReadModel& read, AnswerWait wait);

  // Records the placement, then waits up to the outcome wait for the
  // inventory's answer: the order comes back reserved, rejected, or (the
  // answer is late) still placed. `request`: a digest of the client's
  // Idempotency-Key (empty without one); a request that already placed its
  // order gets that order back, and nothing is appended
  // (es::AggregateWriter::create).
  Order place(const OrderFields& fields, const std::string& request);
  Order complete(std::int64_t id, const std::optional<std::string>& ship_date,
                 const Precondition& precondition);
  Order cancel(std::int64_t id, const Precondition& precondition);
  // The inventory reserved or refused (`answer`, the event that says so):
  // the order records it, once (a redelivered answer finds the order no
  // longer placed). Its read model and placing request have it before it is
  // appended (announce).
  void record_outcome(const StockOutcome& outcome, const events::Envelope& answer);

 private:
  using Decide = std::function<std::optional<Event>(const Order&)>;
  // Decides on the existing order `id` (404 when there is none, then the
  // client's precondition), appends and applies; returns the order after.
  // A decision refused until the inventory answers (DomainError::NotYet) is
  // tried again every recheck, for up to the outcome wait.
  Order change(std::int64_t id, const Precondition& precondition, const Decide& decide);
  // Applies what a command appended (or will append) to the read model,
  // then hands an answered order to the request waiting for it.
  Order settle(const OrderWriter::Outcome& outcome);
  // The outcome `record` appends, applied and handed over before it is
  // appended, when the read model has the order placed.
  void announce(const OrderWriter::Command& record);
  using Settled = util::Rendezvous<std::int64_t, Order>;
  // Until the order leaves `placed` or the outcome wait ends. `look_first`:
  // the answer may have come before `ticket` was taken.
  Order await_outcome(Settled::Ticket& ticket, bool look_first, const Order& placed);

  OrderWriter& writer_;
  const OrdersOwnEvents& own_;
  ReadModel& read_;
  AnswerWait wait_;
  // Placing requests waiting for their orders' answers, which change()
  // offers once it has applied them.
  Settled settled_;
};

}  // namespace petstore::orders
