#include "vocabulary/order_refusal.h"

namespace petstore {

std::string_view to_string(OrderRefusal r) {
  switch (r) {
    case OrderRefusal::InsufficientStock:
      return "insufficient_stock";
    case OrderRefusal::UnknownPet:
      return "unknown_pet";
    case OrderRefusal::PetNotAvailable:
      return "pet_not_available";
  }
  return "insufficient_stock";
}

std::optional<OrderRefusal> parse_refusal(std::string_view text) {
  for (const auto r :
       {OrderRefusal::InsufficientStock, OrderRefusal::UnknownPet, OrderRefusal::PetNotAvailable}) {
    if (text == to_string(r)) {
      return r;
    }
  }
  return std::nullopt;
}

}  // namespace petstore
