#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "domain/decide.h"
#include "domain/order.h"
#include "es/command_path.h"
#include "projection/keys.h"
#include "projection/orders_projection.h"
#include "projection/read_model.h"
#include "redis/channel_waiters.h"

namespace petstore::orders {

// Checks a client's If-Match against the order's version.
using Precondition = std::function<void(std::int64_t current_version)>;

// The order use cases and the order's side of the saga. Each returns the
// order as the read model shows it afterwards.
class OrderCommands {
 public:
  // `settled` wakes a placing request when its order's answer is applied.
  OrderCommands(es::CommandPath& path, ReadModel& read, OrdersProjection& projection, OrderKeys keys,
                std::string topic, std::chrono::milliseconds outcome_wait, redis::ChannelWaiters& settled);

  // Records the placement, then waits up to the outcome wait for the
  // inventory's answer: the order comes back reserved, rejected, or (the
  // answer is late) still placed. `resumed`: see pets' PetCommands::create.
  Order place(std::int64_t id, const OrderFields& fields, bool resumed);
  Order complete(std::int64_t id, const std::optional<std::string>& ship_date,
                 const Precondition& precondition);
  Order cancel(std::int64_t id, const Precondition& precondition);
  // The inventory reserved or refused: the order records it, once.
  void record_outcome(const StockOutcome& outcome);

 private:
  using Decide = std::function<std::optional<Event>(const Order&)>;
  // Under the order's lock: decide on the current order, commit the event.
  void change(std::int64_t id, const Decide& decide);
  void commit(const Event& event, std::int64_t version, es::LockGuard* guard);
  Order await_outcome(std::int64_t id);

  es::CommandPath& path_;
  ReadModel& read_;
  OrdersProjection& projection_;
  OrderKeys keys_;
  std::string topic_;
  std::chrono::milliseconds outcome_wait_;
  redis::ChannelWaiters& settled_;
};

}  // namespace petstore::orders
