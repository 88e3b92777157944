#pragma once

#include <concepts>
#include <string_view>
#include <type_traits>
#include <variant>

namespace petstore::events {

// A domain event that names its own CloudEvents type (ce_type).
template <typename Event>
concept NamesItsType = requires {
  { Event::kType } -> std::convertible_to<std::string_view>;
};

// The CloudEvents type of whichever event `e` holds. Each event struct of a
// domain names its type beside its fields (`static constexpr kType`), so a
// new event is one struct, not also a new case in a list of types kept
// apart from it. Domains bring it into their namespace (`using
// events::type_of;`), where their variant's calls find it.
template <NamesItsType... Events>
constexpr std::string_view type_of(const std::variant<Events...>& e) {
  return std::visit(
      [](const auto& event) -> std::string_view { return std::remove_cvref_t<decltype(event)>::kType; }, e);
}

}  // namespace petstore::events
