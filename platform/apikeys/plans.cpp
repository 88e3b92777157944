#include "apikeys/plans.h"

#include <array>
#include <utility>

namespace petstore::apikeys {
namespace {

constexpr std::array<std::pair<Plan, std::string_view>, 4> kNames{{
    {Plan::Free, "free"},
    {Plan::Pro, "pro"},
    {Plan::Business, "business"},
    {Plan::Enterprise, "enterprise"},
}};

constexpr std::int64_t kMaxQuota = 1'000'000'000;
constexpr std::int64_t kMaxShortWindowS = 86'400;
constexpr std::int64_t kMaxLongWindowS = std::int64_t{31} * 86'400;

}  // namespace

std::optional<Plan> parse_plan(std::string_view name) {
  for (const auto& [plan, n] : kNames) {
    if (n == name) {
      return plan;
    }
  }
  return std::nullopt;
}

std::string_view plan_name(Plan plan) {
  for (const auto& [p, n] : kNames) {
    if (p == plan) {
      return n;
    }
  }
  return "free";
}

std::optional<ratelimit::Limits> fixed_limits(Plan plan) {
  switch (plan) {
    case Plan::Free:
      return ratelimit::Limits{60, 1'000, 60, 86'400};
    case Plan::Pro:
      return ratelimit::Limits{300, 10'000, 60, 86'400};
    case Plan::Business:
      return ratelimit::Limits{1'000, 100'000, 60, 86'400};
    case Plan::Enterprise:
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> invalid_limits(const ratelimit::Limits& l) {
  if (l.per_minute < 1 || l.per_minute > kMaxQuota || l.per_day < 1 || l.per_day > kMaxQuota) {
    return "perMinute and perDay must be between 1 and 1000000000";
  }
  if (l.per_minute > l.per_day) {
    return "perMinute must not exceed perDay";
  }
  if (l.short_window_s < 1 || l.short_window_s > kMaxShortWindowS) {
    return "minuteWindowSeconds must be between 1 and 86400";
  }
  if (l.long_window_s <= l.short_window_s || l.long_window_s > kMaxLongWindowS) {
    return "dayWindowSeconds must be longer than minuteWindowSeconds and at most 2678400";
  }
  return std::nullopt;
}

}  // namespace petstore::apikeys
