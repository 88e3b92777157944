#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "http/socket.h"

namespace petstore::http {

// Responses finished on other threads (workers, Redis I/O threads), waiting
// for their event loop to write them, plus the loop's stop request. The loop
// watches fd() in epoll. Shared with every callback in flight, so a late
// response after the loop is gone lands here harmlessly, not in freed memory.
class Inbox {
 public:
  struct Item {
    std::uint64_t connection;
    std::string bytes;
    bool keep_alive;
  };

  Inbox();

  [[nodiscard]] int fd() const { return wake_.get(); }

  // From any thread; only the first post of a batch writes the eventfd.
  void post(Item item);
  void request_stop();
  // Everything posted so far (swapped into `into`); true once stop was asked.
  bool take(std::vector<Item>& into);
  // The loop is gone: later posts are dropped.
  void close();

 private:
  void signal();

  UniqueFd wake_;
  std::mutex mutex_;
  std::vector<Item> items_;
  bool stop_ = false;
  bool closed_ = false;
};

}  // namespace petstore::http
