// redis::Multiplexer against the real Redis: what a Cork holds and when it
// sends it, the trailer that runs after each of its batches, and replies
// waited for with and without a deadline, and batches run by the thread
// that waits for them.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "redis/connection.h"
#include "redis/multiplexer.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

using namespace std::chrono_literals;

class Multiplexer : public ::testing::Test {
 protected:
  // Whether `key` exists, asked on a connection of its own.
  bool exists(const std::string& key) {
    return redis::as_integer(redis::expect_ok(other_.command({"EXISTS", key}))) == 1;
  }
  // Whether `key` comes to exist within a second.
  bool appears(const std::string& key) {
    for (int i = 0; i < 100; ++i) {
      if (exists(key)) {
        return true;
      }
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

  redis::Multiplexer mux_{Stack::get().redis_endpoint()};
  redis::Connection other_{Stack::get().redis_endpoint()};
  std::string key_ = unique_name("mux");
};

TEST_F(Multiplexer, ACorkHoldsCommandsUntilItsThreadWaitsForAReply) {
  redis::Multiplexer::Cork cork(mux_);
  auto set = mux_.submit({"SET", key_, "1"});
  // Held: the I/O thread has had ample time, and nothing reached Redis.
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(exists(key_));
  // Waiting for a reply sends what is held, this command included.
  EXPECT_EQ(redis::as_string(*mux_.command({"GET", key_})), "1");
  EXPECT_EQ(redis::as_string(*set.get()), "OK");
}

TEST_F(Multiplexer, WhatACorkHoldsIsSentWhenItEnds) {
  {
    redis::Multiplexer::Cork cork(mux_);
    mux_.submit({"SET", key_, "1"});
    std::this_thread::sleep_for(50ms);
    EXPECT_FALSE(exists(key_));
  }
  EXPECT_TRUE(appears(key_));
}

TEST_F(Multiplexer, ACorkInsideAnotherHoldsNothingOfItsOwn) {
  redis::Multiplexer::Cork outer(mux_);
  {
    redis::Multiplexer::Cork inner(mux_);
    mux_.submit({"SET", key_, "1"});
  }
  // The inner one ended; the outer one still holds the command.
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(exists(key_));
  EXPECT_EQ(redis::as_string(*mux_.command({"GET", key_})), "1");
}

TEST_F(Multiplexer, ACorkHoldsOnlyItsOwnThreadsCommands) {
  redis::Multiplexer::Cork cork(mux_);
  std::string reply;
  std::thread([&] { reply = redis::as_string(*mux_.command({"SET", key_, "1"})); }).join();
  EXPECT_EQ(reply, "OK");
  EXPECT_TRUE(exists(key_));
}

TEST_F(Multiplexer, TheTrailerRunsAfterEveryBatchTheCorkSends) {
  redis::Multiplexer::Cork cork(mux_, {"GET", key_});
  EXPECT_FALSE(cork.trailer().has_value()) << "no batch went out yet";

  mux_.submit({"SET", key_, "1"}).get();
  auto first = cork.trailer();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(redis::as_string(*first->get()), "1");

  // Two commands in one batch: the trailer runs after both.
  auto a = mux_.submit({"SET", key_, "2"});
  auto b = mux_.submit({"APPEND", key_, "3"});
  b.get();
  a.get();
  auto second = cork.trailer();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(redis::as_string(*second->get()), "23");
}

TEST_F(Multiplexer, AReplyNotInByTheDeadlineIsUnavailableAndOneInTimeIsKept) {
  // BLPOP on an empty list answers only after its own second.
  const auto started = std::chrono::steady_clock::now();
  EXPECT_THROW(mux_.command({"BLPOP", key_, "1"}, 50ms), redis::Unavailable);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 800ms);
  // The connection still serves, in order, once BLPOP has answered.
  EXPECT_EQ(redis::as_string(*mux_.command({"SET", key_ + ":x", "v"}, 5000ms)), "OK");
  EXPECT_TRUE(exists(key_ + ":x"));
}

// A thread that waits for what its Cork held, with no deadline, may run the
// batch on the lane's connection itself: replies still reach the thread
// that asked, in its order, whoever ran each batch.
TEST_F(Multiplexer, EveryThreadGetsItsOwnRepliesWhicheverThreadRanItsBatch) {
  constexpr std::size_t kThreads = 8;
  constexpr int kRounds = 300;
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  std::vector<int> wrong(kThreads, 0);
  for (std::size_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const auto key = key_ + ":" + std::to_string(t);
      for (int n = 0; n < kRounds; ++n) {
        const auto value = std::to_string(n);
        if (n % 3 == 0) {
          // Not corked: the I/O thread's, side by side with the others'.
          mux_.submit({"SET", key, value}).get();
          wrong[t] += redis::as_string(*mux_.command({"GET", key})) != value;
          continue;
        }
        const redis::Multiplexer::Cork cork(mux_, {"GET", key});
        auto set = mux_.submit({"SET", key, value});
        auto get = mux_.submit({"GET", key});
        wrong[t] += redis::as_string(*get.get()) != value;
        wrong[t] += redis::as_string(*set.get()) != "OK";
      }
    });
  }
  for (auto& t : threads) {
    t.join();
  }
  EXPECT_EQ(wrong, std::vector<int>(kThreads, 0));
}

// While one caller's batch is on the connection, another's command waits
// for it and is sent once the lane is handed back.
TEST_F(Multiplexer, ACommandThatCameWhileACallerHeldTheLaneIsSentOnceItIsHandedBack) {
  std::thread holder([&] {
    const redis::Multiplexer::Cork cork(mux_);
    // BLPOP on an empty list answers nil after its 0.3 s.
    EXPECT_EQ(mux_.submit({"BLPOP", key_, "0.3"}).get()->type, REDIS_REPLY_NIL);
  });
  std::this_thread::sleep_for(100ms);
  // Well within the holder's BLPOP; answered once it has ended, not lost.
  std::string answer;
  try {
    answer = redis::as_string(*mux_.command({"SET", key_ + ":after", "v"}, 5000ms));
  } catch (const redis::Unavailable& e) {
    answer = e.what();
  }
  holder.join();
  EXPECT_EQ(answer, "OK");
  EXPECT_TRUE(exists(key_ + ":after"));
}

}  // namespace
}  // namespace petstore::testing
