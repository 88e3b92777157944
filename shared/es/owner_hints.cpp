#include "es/owner_hints.h"

#include "log/log.h"

namespace petstore::es {

OwnerHints::OwnerHints(redis::Pool& pool, std::string key, std::chrono::milliseconds cache_for)
    : pool_(pool), key_(std::move(key)), cache_for_(cache_for) {}

void OwnerHints::record(std::int32_t partition, const std::string& url) noexcept {
  try {
    pool_.run_idempotent([&](redis::Connection& c) {
      return redis::expect_ok(c.command({"HSET", key_, std::to_string(partition), url})).type;
    });
    const std::lock_guard lock(mutex_);
    cache_[partition] = {url, std::chrono::steady_clock::now() + cache_for_};
  } catch (const std::exception& e) {
    log::warn("owner hint for {} partition {} not recorded ({})", key_, partition, e.what());
  }
}

std::string OwnerHints::lookup(std::int32_t partition) {
  const auto now = std::chrono::steady_clock::now();
  {
    const std::lock_guard lock(mutex_);
    const auto it = cache_.find(partition);
    if (it != cache_.end() && it->second.until > now) {
      return it->second.url;
    }
  }
  std::string url;
  try {
    url = pool_.run_idempotent([&](redis::Connection& c) {
      const auto reply = c.command({"HGET", key_, std::to_string(partition)});
      return reply->type == REDIS_REPLY_STRING ? std::string(redis::as_string(*reply)) : std::string();
    });
  } catch (const std::exception& e) {
    log::warn("owner hint for {} partition {} not read ({})", key_, partition, e.what());
    return {};
  }
  const std::lock_guard lock(mutex_);
  cache_[partition] = {url, now + cache_for_};
  return url;
}

}  // namespace petstore::es
