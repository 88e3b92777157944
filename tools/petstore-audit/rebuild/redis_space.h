#pragma once

#include <cstdint>
#include <string>

#include "rebuild/compare.h"
#include "redis/connection.h"

namespace petstore::audit {

// Reads every key whose name starts with `base` (SCAN, so Redis keeps
// serving), with names relative to `base`.
Snapshot read_space(redis::Connection& conn, const std::string& base);

// Deletes every key whose name starts with `base`; returns how many.
std::int64_t clear_space(redis::Connection& conn, const std::string& base);

}  // namespace petstore::audit
