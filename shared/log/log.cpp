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

bool enabled(Level level) noexcept {
  return spdlog::default_logger_raw()->should_log(to_spdlog(level));
}

void write(Level level, std::string_view line) {
  spdlog::default_logger_raw()->log(to_spdlog(level), line);
}

}  // namespace petstore::log
