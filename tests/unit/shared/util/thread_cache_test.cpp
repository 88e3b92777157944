#include "util/thread_cache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace petstore::util {
namespace {

using namespace std::chrono_literals;

TEST(ThreadCache, RunsTasksSideBySideAtOnce) {
  ThreadCache cache;
  // Every task waits for all the others: only threads of their own let
  // them finish (a pool of fewer threads would never get past the latch).
  constexpr int kTasks = 16;
  std::latch all_started(kTasks);
  std::vector<std::future<int>> done;
  done.reserve(kTasks);
  for (int i = 0; i < kTasks; ++i) {
    done.push_back(cache.run([&all_started, i] {
      all_started.arrive_and_wait();
      return i;
    }));
  }
  for (int i = 0; i < kTasks; ++i) {
    EXPECT_EQ(done[static_cast<size_t>(i)].get(), i);
  }
}

TEST(ThreadCache, KeepsItsThreadsForTheNextTasks) {
  ThreadCache cache;
  std::set<std::thread::id> seen;
  for (int round = 0; round < 20; ++round) {
    std::latch both(2);
    auto a = cache.run([&both] {
      both.arrive_and_wait();
      return std::this_thread::get_id();
    });
    auto b = cache.run([&both] {
      both.arrive_and_wait();
      return std::this_thread::get_id();
    });
    seen.insert(a.get());
    seen.insert(b.get());
    // A finished task's thread counts itself idle just after its future is
    // ready: let it, so the next round finds both waiting.
    for (int i = 0; i < 5000 && cache.idle() < 2; ++i) {
      std::this_thread::sleep_for(1ms);
    }
  }
  EXPECT_EQ(seen.size(), 2U) << "a new thread for each task, as std::async makes";
  EXPECT_EQ(cache.threads(), 2U);
}

TEST(ThreadCache, AnExceptionReachesTheFuture) {
  ThreadCache cache;
  auto f = cache.run([]() -> int { throw std::runtime_error("step failed"); });
  EXPECT_THROW(f.get(), std::runtime_error);
  EXPECT_EQ(cache.run([] { return 7; }).get(), 7);  // the thread lives on
}

TEST(ThreadCache, IdleThreadsEnd) {
  ThreadCache cache(20ms);
  std::latch three(3);
  std::vector<std::future<void>> done;
  done.reserve(3);
  for (int i = 0; i < 3; ++i) {
    done.push_back(cache.run([&three] { three.arrive_and_wait(); }));
  }
  for (auto& f : done) {
    f.get();
  }
  EXPECT_EQ(cache.threads(), 3U);
  for (int i = 0; i < 200 && cache.threads() > 0; ++i) {
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_EQ(cache.threads(), 0U);
  EXPECT_EQ(cache.run([] { return 1; }).get(), 1);  // and a new one starts when needed
}

TEST(ThreadCache, DestructionWaitsForTasksGiven) {
  std::atomic<int> finished{0};
  {
    ThreadCache cache;
    for (int i = 0; i < 4; ++i) {
      cache.run([&finished] {
        std::this_thread::sleep_for(20ms);
        ++finished;
      });
    }
  }
  EXPECT_EQ(finished.load(), 4);
}

}  // namespace
}  // namespace petstore::util
