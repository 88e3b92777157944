#pragma once

#include <algorithm>
#include <chrono>
#include <thread>

namespace petstore::util {

// Calls `attempt` until it returns true, sleeping between calls with a pause
// that starts at `first_pause` and doubles up to 20 ms. Gives up (returns
// false) when the next pause would end after `deadline`.
template <typename Attempt>
bool retry_until(std::chrono::steady_clock::time_point deadline, std::chrono::microseconds first_pause,
                 Attempt&& attempt) {
  auto pause = first_pause;
  for (;;) {
    if (attempt()) {
      return true;
    }
    if (std::chrono::steady_clock::now() + pause > deadline) {
      return false;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20'000));
  }
}

}  // namespace petstore::util
