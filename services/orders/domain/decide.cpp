#include "orders/domain/decide.h"

#include "error/codes.h"
#include "json/event_fields.h"
#include "orders/domain/errors.h"

namespace petstore::orders {
namespace {

[[noreturn]] void illegal(const Order& order, const char* action) {
  throw DomainError(DomainError::Kind::Conflict, codes::kIllegalTransition,
                    std::string("cannot ") + action + " order " + std::to_string(order.id) + ": it is " +
                        std::string(to_string(order.status)));
}

// Only the inventory's answer moves a placed order, so that answer alone
// decides its outcome, whoever records it (docs/saga.md).
void require_answered(const Order& order, const char* action) {
  if (order.status == OrderStatus::Placed) {
    throw DomainError(DomainError::Kind::NotYet, codes::kOrderAwaitingStock,
                      std::string("cannot ") + action + " order " + std::to_string(order.id) +
                          " yet: it awaits the inventory's answer");
  }
}

}  // namespace

OrderPlaced decide_place(std::int64_t id, const OrderFields& fields) {
  // Ids are at most 2^53 - 1 (json::kMaxExactInteger): a larger one names
  // no pet, and the order's events could not carry it exactly.
  if (fields.pet_id <= 0 || fields.pet_id > json::kMaxExactInteger) {
    throw DomainError(DomainError::Kind::Invalid, petstore::codes::kInvalidValue,
                      "petId must be a positive id, at most 9007199254740991");
  }
  if (fields.quantity < 1 || fields.quantity > kMaxOrderQuantity) {
    throw DomainError(DomainError::Kind::Invalid, petstore::codes::kInvalidQuantity,
                      "quantity must be between 1 and " + std::to_string(kMaxOrderQuantity));
  }
  return OrderPlaced{id, fields.pet_id, fields.quantity, fields.ship_date};
}

std::optional<Event> decide_outcome(const Order& order, const StockOutcome& outcome) {
  if (order.status != OrderStatus::Placed) {
    return std::nullopt;
  }
  if (outcome.reserved) {
    return OrderReserved{order.id, order.pet_id, order.quantity};
  }
  return OrderRejected{order.id, order.pet_id, order.quantity, outcome.reason};
}

std::optional<OrderCompleted> decide_complete(const Order& order, const std::string& ship_date) {
  require_answered(order, "complete");
  switch (order.status) {
    case OrderStatus::Reserved:
      return OrderCompleted{order.id, order.pet_id, order.quantity, ship_date};
    case OrderStatus::Completed:
      return std::nullopt;
    default:
      illegal(order, "complete");
  }
}

std::optional<OrderCancelled> decide_cancel(const Order& order) {
  require_answered(order, "cancel");
  switch (order.status) {
    case OrderStatus::Reserved:
      return OrderCancelled{order.id, order.pet_id, order.quantity};
    case OrderStatus::Cancelled:
      return std::nullopt;
    default:
      illegal(order, "cancel");
  }
}

}  // namespace petstore::orders
