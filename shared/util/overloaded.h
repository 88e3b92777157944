#pragma once

namespace petstore {

// Builds one visitor out of several lambdas, for std::visit over variants.
template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace petstore
