#include "log/log.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

namespace {

// An argument that counts how often it is formatted.
struct Counted {
  int* formatted;
};

}  // namespace

template <>
struct fmt::formatter<Counted> : fmt::formatter<int> {
  auto format(const Counted& c, fmt::format_context& ctx) const {
    ++*c.formatted;
    return fmt::formatter<int>::format(*c.formatted, ctx);
  }
};

namespace petstore::log {
namespace {

// log/ writes through spdlog's default logger: each test puts one over a
// string in its place, with a pattern of the level's name and the line.
class LogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    previous_ = spdlog::default_logger();
    auto logger =
        std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::ostream_sink_st>(out_));
    logger->set_pattern("%l %v");
    logger->set_level(spdlog::level::info);
    spdlog::set_default_logger(logger);
  }
  void TearDown() override { spdlog::set_default_logger(previous_); }

  std::ostringstream out_;
  std::shared_ptr<spdlog::logger> previous_;
};

TEST_F(LogTest, FormatsTheArgumentsIntoOneLine) {
  warn("lock {}: {} of {:.2f} ({})", "pets:7", 2, 0.75, std::string("lease ran out"));
  EXPECT_EQ(out_.str(), "warning lock pets:7: 2 of 0.75 (lease ran out)\n");
}

TEST_F(LogTest, EachLevelWritesUnderItsName) {
  info("a {}", 1);
  error("b {}", 2);
  critical("c {}", 3);
  at(Level::warn, "d {}", 4);
  EXPECT_EQ(out_.str(), "info a 1\nerror b 2\ncritical c 3\nwarning d 4\n");
}

TEST_F(LogTest, BelowTheLevelNothingIsFormattedOrWritten) {
  spdlog::default_logger()->set_level(spdlog::level::err);
  EXPECT_FALSE(enabled(Level::info));
  EXPECT_FALSE(enabled(Level::warn));
  EXPECT_TRUE(enabled(Level::error));
  int formatted = 0;
  info("{}", Counted{&formatted});
  warn("{}", Counted{&formatted});
  EXPECT_EQ(formatted, 0);
  EXPECT_EQ(out_.str(), "");
  error("{}", Counted{&formatted});
  EXPECT_EQ(formatted, 1);
  EXPECT_EQ(out_.str(), "error 1\n");
}

TEST_F(LogTest, ConfigureSetsTheLevelByName) {
  configure("pets", "error");
  EXPECT_FALSE(enabled(Level::warn));
  EXPECT_TRUE(enabled(Level::critical));
  configure("pets", "trace");
  EXPECT_TRUE(enabled(Level::trace));
}

// log::Every: one line per period, however many callers find it due.
TEST(Every, LetsOneLineThroughPerPeriodAndCountsTheOthers) {
  Every every(std::chrono::seconds(1));
  std::uint64_t held_back = 99;
  EXPECT_TRUE(every.due(held_back)) << "the first line is due";
  EXPECT_EQ(held_back, 0U);
  EXPECT_FALSE(every.due(held_back));
  EXPECT_FALSE(every.due(held_back));
  EXPECT_FALSE(every.due(held_back));
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_TRUE(every.due(held_back)) << "a period later, the next one is";
  EXPECT_EQ(held_back, 3U) << "the three not let through, counted";
  EXPECT_FALSE(every.due(held_back));
}

TEST(Every, OfCallersOnSeveralThreadsOneWritesTheLine) {
  Every every(std::chrono::hours(1));
  std::atomic<int> due{0};
  constexpr int kCallers = 4;
  std::vector<std::thread> callers;
  callers.reserve(kCallers);
  for (int t = 0; t < kCallers; ++t) {
    callers.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) {
        std::uint64_t held_back = 0;
        if (every.due(held_back)) {
          ++due;
        }
      }
    });
  }
  for (auto& c : callers) {
    c.join();
  }
  EXPECT_EQ(due, 1);
}

}  // namespace
}  // namespace petstore::log
