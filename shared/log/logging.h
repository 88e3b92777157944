#pragma once

#include <string>

namespace petstore::log {

// Sets spdlog's level ("trace".."off") and a pattern that names the service,
// so interleaved logs of several replicas stay readable.
void configure(const std::string& service, const std::string& level);

}  // namespace petstore::log
