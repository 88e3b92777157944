#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace petstore::text {

// An RFC 3339 date-time (OpenAPI's format: date-time): date, "T", time with
// optional fraction, then "Z" or an offset, with real calendar and clock
// ranges (no month 13, no 25:00); tests/unit/shared/text/datetime_test.cpp
// has examples.
bool is_date_time(std::string_view text);

// An RFC 3339 date-time as milliseconds since the epoch (a leap second
// counts as :59); nullopt if it is not one.
std::optional<std::int64_t> parse_time_ms(std::string_view text);

}  // namespace petstore::text
