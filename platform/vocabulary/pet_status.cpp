#include "vocabulary/pet_status.h"

namespace petstore {

std::string_view to_string(PetStatus s) {
  switch (s) {
    case PetStatus::Available:
      return "available";
    case PetStatus::Pending:
      return "pending";
    case PetStatus::Sold:
      return "sold";
  }
  return "available";
}

std::optional<PetStatus> parse_status(std::string_view text) {
  if (text == "available") {
    return PetStatus::Available;
  }
  if (text == "pending") {
    return PetStatus::Pending;
  }
  if (text == "sold") {
    return PetStatus::Sold;
  }
  return std::nullopt;
}

}  // namespace petstore
