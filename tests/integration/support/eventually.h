#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace petstore::testing {

// Polls `check` until it holds or `timeout` passes: for what the store does
// after it answered (the saga's later steps, projections, rebuilds). The
// timeout bounds a failure; it does not time a success.
inline bool eventually(const std::function<bool()>& check,
                       std::chrono::milliseconds timeout = std::chrono::seconds(15)) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < give_up) {
    if (check()) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return check();
}

}  // namespace petstore::testing
