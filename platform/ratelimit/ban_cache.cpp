#include "ratelimit/ban_cache.h"

namespace petstore::ratelimit {
namespace {

// Beyond this many remembered bans, expired ones are swept on insert, so an
// attacker rotating addresses cannot grow the map without bound for long.
constexpr size_t kSweepAbove = 10'000;

}  // namespace

BanCache::BanCache(Clock now) : now_(std::move(now)) {}

void BanCache::remember(const std::string& subject, const Decision& banned) {
  const auto now = now_();
  const std::lock_guard lock(mutex_);
  if (entries_.size() >= kSweepAbove) {
    drop_expired(now);
  }
  entries_[subject] = {now + std::chrono::milliseconds(banned.ban_ms), banned};
}

std::optional<Decision> BanCache::find(const std::string& subject) {
  const auto now = now_();
  const std::lock_guard lock(mutex_);
  const auto it = entries_.find(subject);
  if (it == entries_.end()) {
    return std::nullopt;
  }
  if (it->second.until <= now) {
    entries_.erase(it);
    return std::nullopt;
  }
  auto d = it->second.decision;
  d.ban_ms = std::chrono::duration_cast<std::chrono::milliseconds>(it->second.until - now).count();
  d.retry_after = std::max<std::int64_t>(1, (d.ban_ms + 999) / 1000);
  d.state = banned_state(d.retry_after);
  return d;
}

void BanCache::drop_expired(std::chrono::steady_clock::time_point now) {
  std::erase_if(entries_, [now](const auto& e) { return e.second.until <= now; });
}

}  // namespace petstore::ratelimit
