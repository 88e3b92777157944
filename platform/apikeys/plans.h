#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ratelimit/decision.h"

namespace petstore::apikeys {

enum class Plan { Free, Pro, Business, Enterprise };

std::optional<Plan> parse_plan(std::string_view name);
std::string_view plan_name(Plan plan);

// Free 60/min and 1,000/day; Pro 300 and 10,000; Business 1,000 and 100,000.
// Enterprise has no fixed limits: each key brings its own.
std::optional<ratelimit::Limits> fixed_limits(Plan plan);

// Why a custom (Enterprise) set of limits is unusable, or nullopt if it is
// fine: both quotas 1..1,000,000,000, the short window 1..86,400 s and shorter
// than the long one (at most 31 days), the short quota at most the long one.
std::optional<std::string> invalid_limits(const ratelimit::Limits& limits);

}  // namespace petstore::apikeys
