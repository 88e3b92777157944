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

}  // namespace petstore::log
