#include "ids/id_generator.h"

#include <set>

#include <gtest/gtest.h>

namespace petstore::ids {
namespace {

TEST(IdGenerator, IdsStayBelowTwoToThe53) {
  // The last millisecond the 41-bit field can hold, worker and sequence maxed.
  const auto last_ms = IdGenerator::kEpochMs + (std::int64_t{1} << 41) - 1;
  const auto id = IdGenerator::compose(last_ms, IdGenerator::kMaxWorker, IdGenerator::kMaxSequence);
  EXPECT_EQ(id, (std::int64_t{1} << 53) - 1);
}

TEST(IdGenerator, UniqueAndIncreasingWithinOneMillisecond) {
  std::int64_t now = IdGenerator::kEpochMs + 1000;
  int calls = 0;
  // The clock stands still for 100 calls, then moves on: the generator must
  // wait rather than reuse a (time, sequence) pair.
  IdGenerator gen(5, [&] { return ++calls > 100 ? ++now : now; });
  std::set<std::int64_t> seen;
  std::int64_t last = 0;
  for (int i = 0; i < 500; ++i) {
    const auto id = gen.next();
    EXPECT_GT(id, last);
    last = id;
    EXPECT_TRUE(seen.insert(id).second);
  }
}

TEST(IdGenerator, ClockSteppingBackNeverRepeatsAnId) {
  std::vector<std::int64_t> clock = {2000, 2000, 1990, 1995, 2001, 2002};
  size_t i = 0;
  IdGenerator gen(1, [&] { return IdGenerator::kEpochMs + clock[std::min(i++, clock.size() - 1)]; });
  const auto a = gen.next();
  const auto b = gen.next();
  const auto c = gen.next();  // waits through 1990 and 1995 to 2001
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
}

TEST(IdGenerator, WorkersNeverCollide) {
  const auto t = IdGenerator::kEpochMs + 5;
  EXPECT_NE(IdGenerator::compose(t, 1, 0), IdGenerator::compose(t, 2, 0));
  EXPECT_THROW(IdGenerator(64, system_unix_ms), std::invalid_argument);
}

}  // namespace
}  // namespace petstore::ids
