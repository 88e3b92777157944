#include "http/task_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

namespace petstore::http {
namespace {

// Two workers held busy, one place in the queue: the third connection
// waits, the fourth is served at once on the overflow thread, marked so
// the server answers it 503; nothing is dropped.
TEST(TaskQueue, PastWorkersAndQueueConnectionsAreMarkedOverflow) {
  TaskQueue queue(2, 1);
  while (queue.idle() < 2) {  // both workers started
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::promise<void> release;
  const auto released = release.get_future().share();
  std::atomic<int> served{0};
  const auto busy = [&] {
    served += 1;
    released.wait();
  };
  queue.enqueue(busy);
  queue.enqueue(busy);
  while (served < 2) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::promise<bool> third_overflow;
  queue.enqueue([&] { third_overflow.set_value(current_connection()->overflow); });
  EXPECT_EQ(queue.waiting(), 1U);
  std::promise<bool> fourth_overflow;
  queue.enqueue([&] { fourth_overflow.set_value(current_connection()->overflow); });
  EXPECT_TRUE(fourth_overflow.get_future().get());  // answered while the workers are still busy
  release.set_value();
  EXPECT_FALSE(third_overflow.get_future().get());
  queue.shutdown();
  EXPECT_EQ(current_connection(), nullptr);
}

TEST(TaskQueue, EachTaskHasAFreshConnectionState) {
  TaskQueue queue(1, 8);
  std::promise<void> first;
  queue.enqueue([&] {
    current_connection()->poisoned = true;
    first.set_value();
  });
  first.get_future().wait();
  std::promise<bool> second;
  queue.enqueue([&] { second.set_value(current_connection()->poisoned); });
  EXPECT_FALSE(second.get_future().get());
}

}  // namespace
}  // namespace petstore::http
