#include "es/catch_up.h"

#include "es/errc.h"
#include "util/backoff.h"

namespace petstore::es {

CatchUp::CatchUp(kafka::Producer& producer, const std::string& brokers, redis::Pool& pool,
                 std::string offsets_key, std::chrono::milliseconds timeout)
    : producer_(producer),
      high_watermark_(brokers, "catch-up"),
      pool_(pool),
      offsets_key_(std::move(offsets_key)),
      timeout_(timeout) {}

CatchUp::Deadline CatchUp::bounded(Deadline deadline) const {
  return std::min(deadline, std::chrono::steady_clock::now() + timeout_);
}

void CatchUp::partition_end(const std::string& topic, std::int32_t partition, Deadline deadline) {
  deadline = bounded(deadline);
  const auto end = high_watermark_.of(topic, partition, static_cast<int>(timeout_.count()));
  if (end > 0) {
    wait_applied(topic, partition, end - 1, deadline);
  }
}

void CatchUp::topic_end(const std::string& topic, Deadline deadline) {
  deadline = bounded(deadline);
  const auto n = producer_.partitions(topic);
  for (std::int32_t p = 0; p < n; ++p) {
    const auto end = high_watermark_.of(topic, p, static_cast<int>(timeout_.count()));
    if (end > 0) {
      wait_applied(topic, p, end - 1, deadline);
    }
  }
}

void CatchUp::through(const std::string& topic, std::int32_t partition, std::int64_t offset) {
  wait_applied(topic, partition, offset, std::chrono::steady_clock::now() + timeout_);
}

void CatchUp::wait_applied(const std::string& topic, std::int32_t partition, std::int64_t offset,
                           Deadline deadline) {
  const auto field = topic + ":" + std::to_string(partition);
  const bool caught_up = util::retry_until(deadline, std::chrono::microseconds(500), [&] {
    const auto applied = pool_.run_idempotent([&](redis::Connection& c) {
      const auto reply = c.command({"HGET", offsets_key_, field});
      return reply->type == REDIS_REPLY_NIL ? std::int64_t{-1} : redis::as_integer(redis::expect_ok(reply));
    });
    return applied >= offset;
  });
  if (!caught_up) {
    throw Error(Errc::Lagging, "the read model is behind the event log; retry shortly");
  }
}

GroupCatchUp::GroupCatchUp(const std::string& brokers, std::string group, std::chrono::milliseconds timeout)
    : high_watermark_(brokers, group), offsets_(brokers, std::move(group)), timeout_(timeout) {}

void GroupCatchUp::partition_end(const std::string& topic, std::int32_t partition) {
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  const auto timeout_ms = static_cast<int>(timeout_.count());
  const auto end = high_watermark_.of(topic, partition, timeout_ms);
  // An empty partition has nothing to handle, and a group commits nothing
  // for it.
  const bool caught_up = end == 0 || util::retry_until(deadline, std::chrono::milliseconds(10), [&] {
                           return offsets_.committed(topic, partition, timeout_ms) >= end;
                         });
  if (!caught_up) {
    throw Error(Errc::Lagging, "the reactor of " + topic + " is behind the event log; retry shortly");
  }
}

}  // namespace petstore::es
