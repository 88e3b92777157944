// es::AggregateLock against a Redis of the test's own.
#include "es/aggregate_lock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "redis/pool.h"
#include "support/own_redis.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

using namespace std::chrono_literals;

std::int64_t info_field(redis::Connection& c, const std::string& section, const std::string& field) {
  const auto info = std::string(redis::as_string(*c.command({"INFO", section})));
  const auto at = info.find(field + ":");
  return at == std::string::npos ? -1 : std::stoll(info.substr(at + field.size() + 1));
}

// A poisoned lock tells the next holder that an append's outcome is
// unknown, so that it catches up first. Our Redis evicts under
// `volatile-lru` (docs/reliability.md): a lock that carried a TTL was among
// the keys it may evict, and the next holder then decided on a read model
// that may lack the append.
TEST(AggregateLockTest, APoisonedLockOutlivesEvictionUnderVolatileLru) {
  OwnRedis own;
  redis::Endpoint endpoint;
  endpoint.port = own.port();
  redis::Pool pool(endpoint, 2);
  es::AggregateLock locks(pool, 200ms, 2s);
  const auto key = unique_name("lock");
  locks.poison(locks.acquire(key));

  auto c = own.connect();
  const auto used = info_field(c, "memory", "used_memory");
  ASSERT_GT(used, 0);
  ASSERT_FALSE(redis::is_error(*c.command({"CONFIG", "SET", "maxmemory-policy", "volatile-lru"})));
  ASSERT_FALSE(redis::is_error(
      *c.command({"CONFIG", "SET", "maxmemory", std::to_string(used + std::int64_t{4} * 1024 * 1024)})));
  // Cached data with a TTL, as the read model's evictable keys have, far
  // past the memory allowed: Redis evicts thousands of volatile keys.
  const std::string value(1024, 'x');
  for (int batch = 0; batch < 40; ++batch) {
    for (int i = 0; i < 500; ++i) {
      c.append({"SET", "filler:" + std::to_string(batch * 500 + i), value, "PX", "3600000"});
    }
    for (int i = 0; i < 500; ++i) {
      ASSERT_FALSE(redis::is_error(*c.next_reply()));
    }
  }
  ASSERT_GT(info_field(c, "stats", "evicted_keys"), 5000);

  const auto next = locks.acquire(key);
  EXPECT_TRUE(next.previous_holder_died) << "the poisoned lock was evicted";
  locks.release(next);
}

}  // namespace
}  // namespace petstore::testing
