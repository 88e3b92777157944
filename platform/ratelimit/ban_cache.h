#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "ratelimit/decision.h"

namespace petstore::ratelimit {

// This replica's memory of bans Redis announced: until a ban ends, requests
// from the banned subject are answered here without a Redis round trip, so a
// flood from a banned key costs Redis nothing.
class BanCache {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  explicit BanCache(Clock now = std::chrono::steady_clock::now);

  // Remembers `banned` (verdict Banned) for its ban_ms from now.
  void remember(const std::string& subject, const Decision& banned);
  // The ban still in force for `subject`, its Retry-After and ban_ms set to
  // the time left; nullopt once it has ended.
  std::optional<Decision> find(const std::string& subject);

 private:
  struct Entry {
    std::chrono::steady_clock::time_point until;
    Decision decision;
  };
  void drop_expired(std::chrono::steady_clock::time_point now);

  Clock now_;
  std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace petstore::ratelimit
