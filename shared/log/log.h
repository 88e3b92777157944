#pragma once

#include <fmt/core.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace petstore::log {

// The services' one way to write a log line: log::warn("lock {}: {}", key,
// e.what()), formatted as fmt (and spdlog) format, checked at compile time,
// and written by spdlog's default logger (configure() sets it up).
//
// Why not spdlog::warn(...) itself: its templates format in the calling
// unit, so every unit with a formatted spdlog call compiled fmt's whole
// formatting engine (vformat_to, the float and integer writers) again,
// which made such units slow to compile. Here a unit instantiates
// only fmt::format's argument packing; the formatting is fmt's compiled
// library, and the writing is log.cpp's, compiled once.
enum class Level { trace, debug, info, warn, error, critical };

// How lines are written: text for a person at a terminal, one JSON object
// a line for a log pipeline (LOG_FORMAT; docs/operations.md, "Logs").
enum class Format { text, json };
// "text" or "json"; throws std::invalid_argument for anything else.
Format format_named(std::string_view name);

// Sets the level ("trace".."off"), the format, and what every line says of
// its writer (service and replica), so the interleaved logs of several
// replicas stay readable. A composition root calls it once, at start.
void configure(const std::string& service, const std::string& replica, const std::string& level,
               Format format = Format::text);

// True when a line at `level` would be written (the configured level).
bool enabled(Level level) noexcept;
// Writes one line at `level`, as it is. A line written while a trace is
// current (trace::current()) names its trace and span.
void write(Level level, std::string_view line);

// A named value of a line: a string, or (`number`) a JSON number written as is.
struct Field {
  std::string_view key;
  std::string_view value;
  bool number = false;
};
// Writes one line of `message` and `fields`: in JSON, each field a member of
// the line's object; in text, `key=value` after the message.
void write(Level level, std::string_view message, std::initializer_list<Field> fields);

template <typename... Args>
void at(Level level, fmt::format_string<Args...> format, Args&&... args) {
  if (enabled(level)) {
    write(level, fmt::format(format, std::forward<Args>(args)...));
  }
}

// Lets one line through per `period`, for a condition that can hold for
// every request of a burst (each command refused while a rebalance runs):
// a storm of refusals must not become a storm of log lines. Thread-safe.
class Every {
 public:
  explicit Every(std::chrono::milliseconds period) : period_(period) {}
  // Whether a line is due now. When it is, `held_back` is set to how many
  // calls were not due since the last line that was.
  bool due(std::uint64_t& held_back) noexcept;

 private:
  std::chrono::steady_clock::duration period_;
  std::atomic<std::chrono::steady_clock::rep> next_{0};  // steady_clock ticks
  std::atomic<std::uint64_t> held_back_{0};
};

template <typename... Args>
void info(fmt::format_string<Args...> format, Args&&... args) {
  at(Level::info, format, std::forward<Args>(args)...);
}

template <typename... Args>
void warn(fmt::format_string<Args...> format, Args&&... args) {
  at(Level::warn, format, std::forward<Args>(args)...);
}

template <typename... Args>
void error(fmt::format_string<Args...> format, Args&&... args) {
  at(Level::error, format, std::forward<Args>(args)...);
}

template <typename... Args>
void critical(fmt::format_string<Args...> format, Args&&... args) {
  at(Level::critical, format, std::forward<Args>(args)...);
}

}  // namespace petstore::log
