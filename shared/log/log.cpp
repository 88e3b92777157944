#include "log/log.h"

#include <spdlog/spdlog.h>

namespace petstore::log {
namespace {

spdlog::level::level_enum to_spdlog(Level level) {
  switch (level) {
    case Level::trace:
      return spdlog::level::trace;
    case Level::debug:
      return spdlog::level::debug;
    case Level::info:
      return spdlog::level::info;
    case Level::warn:
      return spdlog::level::warn;
    case Level::error:
      return spdlog::level::err;
    case Level::critical:
      return spdlog::level::critical;
  }
  return spdlog::level::critical;
}

}  // namespace

void configure(const std::string& service, const std::string& level) {
  spdlog::set_level(spdlog::level::from_str(level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ [" + service + " %P] %v");
}

bool enabled(Level level) noexcept {
  return spdlog::default_logger_raw()->should_log(to_spdlog(level));
}

void write(Level level, std::string_view line) {
  spdlog::default_logger_raw()->log(to_spdlog(level), line);
}

bool Every::due(std::uint64_t& held_back) noexcept {
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  auto next = next_.load();
  // Of the callers that find the line due at the same moment, the one whose
  // exchange succeeds writes it; the others count as held back.
  if (now >= next && next_.compare_exchange_strong(next, now + period_.count())) {
    held_back = held_back_.exchange(0);
    return true;
  }
  held_back_.fetch_add(1);
  return false;
}

}  // namespace petstore::log
