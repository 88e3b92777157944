// es::IdempotencyStore against the real Redis: what a retry with the same
// Idempotency-Key gets in each state of the first request (running, done,
// abandoned, dead past its lease), and that a holder whose lease ran out
// can neither store its answer over the new holder's nor drop its record.
// The HTTP edge's mapping of each refusal is tested in
// tests/unit/shared/http/response_test.cpp; creates that repeat a key end
// to end, in pets_api_test.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "es/errc.h"
#include "es/idempotency.h"
#include "redis/pool.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

using Outcome = es::IdempotencyStore::Outcome;

class IdempotencyStoreTest : public ::testing::Test {
 protected:
  // The es::Errc a call throws, or nothing.
  template <typename F>
  static std::optional<es::Errc> refusal(F&& call, std::optional<int>* retry_after = nullptr) {
    try {
      call();
    } catch (const es::Error& e) {
      if (retry_after != nullptr) {
        *retry_after = e.retry_after_seconds();
      }
      return e.code();
    }
    return std::nullopt;
  }

  redis::Pool pool_{Stack::get().redis_endpoint(), 2};
  es::IdempotencyStore store_{pool_, std::chrono::milliseconds(5000), std::chrono::hours(24)};
  std::string key_ = unique_name("idempotency");
  const es::StoredResponse created_{201, R"({"id":7})", "/pets/7", "\"1\""};
};

TEST_F(IdempotencyStoreTest, ARetryAfterTheAnswerReplaysItAndTheRecordExpiresWithItsTtl) {
  const auto first = store_.begin(key_, "fp");
  EXPECT_EQ(first.outcome, Outcome::Fresh);
  store_.complete(first, created_);

  const auto retry = store_.begin(key_, "fp");
  ASSERT_EQ(retry.outcome, Outcome::Replay);
  EXPECT_EQ(retry.replay.status, 201);
  EXPECT_EQ(retry.replay.body, R"({"id":7})");
  EXPECT_EQ(retry.replay.location, "/pets/7");
  EXPECT_EQ(retry.replay.etag, "\"1\"");

  const auto ttl_ms = std::stoll(redis_command({"PTTL", key_}).at(0));
  EXPECT_GT(ttl_ms, 0) << "a key is kept for its TTL, not for ever";
  EXPECT_LE(ttl_ms, 24LL * 3600 * 1000);
}

TEST_F(IdempotencyStoreTest, ARetryWhileTheFirstRunsIsRefusedWithTheLeaseLeftAsItsRetryAfter) {
  const auto first = store_.begin(key_, "fp");
  std::optional<int> retry_after;
  EXPECT_EQ(refusal([&] { store_.begin(key_, "fp"); }, &retry_after), es::Errc::RequestInProgress);
  ASSERT_TRUE(retry_after.has_value());
  EXPECT_GE(*retry_after, 1);
  EXPECT_LE(*retry_after, 5) << "rounded up from what is left of the 5 s lease";

  store_.complete(first, created_);
  EXPECT_EQ(store_.begin(key_, "fp").outcome, Outcome::Replay);
}

TEST_F(IdempotencyStoreTest, TheSameKeyWithAnotherRequestIsRefusedWhileRunningAndAfterwards) {
  const auto first = store_.begin(key_, "fp-a");
  EXPECT_EQ(refusal([&] { store_.begin(key_, "fp-b"); }), es::Errc::IdempotencyKeyReused);
  store_.complete(first, created_);
  EXPECT_EQ(refusal([&] { store_.begin(key_, "fp-b"); }), es::Errc::IdempotencyKeyReused);
  EXPECT_EQ(store_.begin(key_, "fp-a").outcome, Outcome::Replay) << "the refusals changed nothing";
}

TEST_F(IdempotencyStoreTest, AnAbandonedRequestLetsARetryStartAfresh) {
  const auto first = store_.begin(key_, "fp");
  store_.abandon(first);
  EXPECT_EQ(redis_command({"EXISTS", key_}).at(0), "0");
  const auto retry = store_.begin(key_, "fp-other");  // nothing of the first is kept, its request neither
  EXPECT_EQ(retry.outcome, Outcome::Fresh);
}

TEST_F(IdempotencyStoreTest, AHolderPastItsLeaseIsResumedFromAndCanNeitherAnswerNorDropTheRecord) {
  es::IdempotencyStore short_lease{pool_, std::chrono::milliseconds(50), std::chrono::hours(1)};
  const auto dead = short_lease.begin(key_, "fp");
  // Redis' clock decides the lease (TIME in the script); 200 ms is four leases.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto retry = store_.begin(key_, "fp");  // with a lease of 5 s
  EXPECT_EQ(retry.outcome, Outcome::Resumed);

  // The first holder wakes up late: what it does is ignored, and the
  // retry still runs.
  short_lease.complete(dead, {500, "stale", "", ""});
  short_lease.abandon(dead);
  EXPECT_EQ(refusal([&] { store_.begin(key_, "fp"); }), es::Errc::RequestInProgress);

  store_.complete(retry, created_);
  const auto replay = store_.begin(key_, "fp");
  ASSERT_EQ(replay.outcome, Outcome::Replay);
  EXPECT_EQ(replay.replay.status, 201);
  EXPECT_EQ(replay.replay.body, R"({"id":7})");
}

TEST_F(IdempotencyStoreTest, AnAnsweredRequestIsNotDroppedByAnAbandon) {
  const auto first = store_.begin(key_, "fp");
  store_.complete(first, created_);
  store_.abandon(first);  // only a pending record is dropped
  EXPECT_EQ(store_.begin(key_, "fp").outcome, Outcome::Replay);
}

}  // namespace
}  // namespace petstore::testing
