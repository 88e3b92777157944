#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace petstore::text {

// An RFC 3339 date-time (OpenAPI's format: date-time), e.g.
// 2026-11-22T10:00:00Z or 2026-11-22T10:00:00.5+01:00, with real calendar
// and clock ranges (no month 13, no 25:00).
bool is_date_time(std::string_view text);

// An RFC 3339 date-time as milliseconds since the epoch (a leap second
// counts as :59); nullopt if it is not one.
std::optional<std::int64_t> parse_time_ms(std::string_view text);

}  // namespace petstore::text
