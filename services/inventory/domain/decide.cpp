#include "inventory/domain/decide.h"

#include <string>

#include "error/codes.h"
#include "inventory/domain/errors.h"

namespace petstore::inventory {

std::optional<Event> decide_pet_fact(const Item& item, const PetFact& fact) {
  if (fact.pet_version <= item.pet_version) {
    return std::nullopt;
  }
  switch (fact.kind) {
    case PetFact::Kind::Appeared:
      return Tracked{item.pet_id, fact.status, fact.pet_version};
    case PetFact::Kind::Changed:
      if (!item.tracked) {
        // The pet's creation was not mirrored (a ledger only ever misses it
        // if the pets topic was truncated): the change makes it known.
        return Tracked{item.pet_id, fact.status, fact.pet_version};
      }
      return PetStatusMirrored{item.pet_id, fact.status, fact.pet_version};
    case PetFact::Kind::Deleted:
      return Untracked{item.pet_id, fact.pet_version};
  }
  return std::nullopt;
}

std::optional<StockSet> decide_set_stock(const Item& item, std::int64_t quantity) {
  if (!item.tracked) {
    throw DomainError(DomainError::Kind::NotFound, codes::kItemNotFound,
                      "pet " + std::to_string(item.pet_id) + " has no inventory entry");
  }
  if (quantity < 0 || quantity > kMaxQuantity) {
    throw DomainError(DomainError::Kind::Invalid, petstore::codes::kInvalidQuantity,
                      "quantity must be between 0 and " + std::to_string(kMaxQuantity));
  }
  if (quantity == item.quantity) {
    return std::nullopt;
  }
  return StockSet{item.pet_id, quantity};
}

std::optional<Event> decide_order_fact(const Item& item, const Reservation& recorded, const OrderFact& fact) {
  using State = Reservation::State;
  switch (fact.kind) {
    case OrderFact::Kind::Placed: {
      if (recorded.state != State::None) {
        return std::nullopt;
      }
      auto refuse = [&](OrderRefusal why) { return Refused{item.pet_id, fact.order_id, fact.quantity, why}; };
      if (!item.tracked) {
        return refuse(OrderRefusal::UnknownPet);
      }
      if (item.pet_status != PetStatus::Available) {
        return refuse(OrderRefusal::PetNotAvailable);
      }
      if (fact.quantity <= 0 || fact.quantity > item.quantity) {
        return refuse(OrderRefusal::InsufficientStock);
      }
      return Reserved{item.pet_id, fact.order_id, fact.quantity};
    }
    case OrderFact::Kind::Cancelled:
      if (recorded.state != State::Reserved) {
        return std::nullopt;
      }
      return Released{item.pet_id, fact.order_id, recorded.quantity};
    case OrderFact::Kind::Completed:
      if (recorded.state != State::Reserved) {
        return std::nullopt;
      }
      return Consumed{item.pet_id, fact.order_id, recorded.quantity};
  }
  return std::nullopt;
}

}  // namespace petstore::inventory
