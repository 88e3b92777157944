#pragma once

#include <optional>
#include <string_view>

namespace petstore {

// The spec's PetStatus, shared by the pets catalogue and inventory entries.
enum class PetStatus { Available, Pending, Sold };

std::string_view to_string(PetStatus s);
std::optional<PetStatus> parse_status(std::string_view text);

}  // namespace petstore
