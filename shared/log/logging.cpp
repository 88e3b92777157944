#include "log/logging.h"

#include <spdlog/spdlog.h>

namespace petstore::log {

void configure(const std::string& service, const std::string& level) {
  spdlog::set_level(spdlog::level::from_str(level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ [" + service + " %P] %v");
}

}  // namespace petstore::log
