#pragma once

#include <optional>
#include <string_view>

namespace petstore {

// Why the inventory refused to reserve stock for an order. The inventory
// records it and the orders service shows it; the value is also the Error
// code of the refused POST /store/orders.
enum class OrderRefusal { InsufficientStock, UnknownPet, PetNotAvailable };

std::string_view to_string(OrderRefusal r);
std::optional<OrderRefusal> parse_refusal(std::string_view text);

}  // namespace petstore
