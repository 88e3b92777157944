#include "log/log.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "trace/context.h"

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
  configure("pets", "pets-1", "error");
  EXPECT_FALSE(enabled(Level::warn));
  EXPECT_TRUE(enabled(Level::critical));
  configure("pets", "pets-1", "trace");
  EXPECT_TRUE(enabled(Level::trace));
}

TEST_F(LogTest, FieldsFollowTheMessageInText) {
  write(Level::info, "request", {{"method", "GET"}, {"status", "200", true}});
  EXPECT_EQ(out_.str(), "info request method=GET status=200\n");
}

TEST_F(LogTest, ALineInATraceNamesItsTraceAndSpan) {
  const trace::Scope span(*trace::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
  warn("slow {}", 1);
  EXPECT_EQ(out_.str(),
            "warning slow 1 trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7\n");
}

// LOG_FORMAT=json: every line one JSON object, whatever its text holds.
class JsonLogTest : public LogTest {
 protected:
  void SetUp() override {
    LogTest::SetUp();
    configure("pets", "pets-\"1\"", "info", Format::json);
  }
  void TearDown() override {
    configure("pets", "pets-1", "info", Format::text);
    LogTest::TearDown();
  }
  // Each line written, parsed.
  std::vector<rapidjson::Document> lines() {
    std::vector<rapidjson::Document> out;
    std::istringstream in(out_.str());
    for (std::string line; std::getline(in, line);) {
      auto& d = out.emplace_back();
      d.Parse(line.c_str(), line.size());
      EXPECT_FALSE(d.HasParseError()) << line;
      EXPECT_TRUE(d.IsObject()) << line;
    }
    return out;
  }
};

TEST_F(JsonLogTest, ALineIsAnObjectWithTimeLevelServiceReplicaAndMessage) {
  warn("lock {}: \"{}\"\n\tthen {}", "pets:7", "quoted", std::string("\x01\xff"));
  const auto l = lines();
  ASSERT_EQ(l.size(), 1U);
  const auto& d = l[0];
  EXPECT_STREQ(d["level"].GetString(), "warning");
  EXPECT_STREQ(d["service"].GetString(), "pets");
  EXPECT_STREQ(d["replica"].GetString(), "pets-\"1\"");
  EXPECT_STREQ(d["msg"].GetString(), "lock pets:7: \"quoted\"\n\tthen \x01\xef\xbf\xbd");
  const std::string time = d["time"].GetString();
  EXPECT_EQ(time.size(), 24U) << time;  // 2026-11-28T12:00:00.000Z
  EXPECT_EQ(time.back(), 'Z') << time;
  EXPECT_FALSE(d.HasMember("trace_id"));
}

TEST_F(JsonLogTest, FieldsAndTheTraceAreMembers) {
  const trace::Scope span(*trace::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
  write(Level::info, "request",
        {{"route", "/pets/{petId}"}, {"status", "404", true}, {"latency_ms", "1.250", true}});
  const auto l = lines();
  ASSERT_EQ(l.size(), 1U);
  const auto& d = l[0];
  EXPECT_STREQ(d["msg"].GetString(), "request");
  EXPECT_STREQ(d["route"].GetString(), "/pets/{petId}");
  EXPECT_EQ(d["status"].GetInt(), 404);
  EXPECT_DOUBLE_EQ(d["latency_ms"].GetDouble(), 1.25);
  EXPECT_STREQ(d["trace_id"].GetString(), "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_STREQ(d["span_id"].GetString(), "00f067aa0ba902b7");
}

TEST(LogFormat, IsNamedTextOrJson) {
  EXPECT_EQ(format_named("text"), Format::text);
  EXPECT_EQ(format_named("json"), Format::json);
  EXPECT_THROW(format_named("JSON"), std::invalid_argument);
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
