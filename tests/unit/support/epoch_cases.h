#pragma once

// The single writer's epoch rule as cases: each a partition's records by
// their fence headers, what the rule says of each, and the epoch it ends
// at. es::EpochRule runs them in tests/unit/shared/es/epoch_test.cpp, and
// the projection's Lua, which applies the same rule in Redis, in
// tests/integration/shared/projection/projection_scripts_test.cpp: one table for both.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "es/epoch.h"

namespace petstore::testing {

struct EpochStep {
  std::optional<std::string_view> claim;
  std::optional<std::string_view> epoch;
  es::EpochRule::Verdict verdict;
  const char* why;
};

struct EpochCase {
  const char* name;
  std::vector<EpochStep> steps;
  std::int64_t final_epoch;
};

inline const std::vector<EpochCase>& epoch_cases() {
  using V = es::EpochRule::Verdict;
  using std::nullopt;
  static const std::vector<EpochCase> cases{
      {"events before any claim are of epoch 0",
       {{nullopt, nullopt, V::Counts, "an unstamped event"},
        {nullopt, "0", V::Counts, "epoch 0"},
        {nullopt, "1", V::Fenced, "no claim started epoch 1"}},
       0},
      {"a claim starts an epoch and fences the ones before",
       {{"1", nullopt, V::Claimed, "the first owner"},
        {nullopt, "1", V::Counts, "its event"},
        {nullopt, nullopt, V::Fenced, "an unstamped event after a claim"},
        {"2", nullopt, V::Claimed, "a new owner"},
        {nullopt, "1", V::Fenced, "the replaced owner, resumed"},
        {nullopt, "2", V::Counts, "the new owner's event"},
        {nullopt, "3", V::Fenced, "an epoch nobody claimed"}},
       2},
      {"a claim at or below the current epoch is stale",
       {{"5", nullopt, V::Claimed, "a claim"},
        {"5", nullopt, V::StaleClaim, "two claimants raced; the first one won"},
        {"4", nullopt, V::StaleClaim, "a lower claim"},
        {nullopt, "5", V::Counts, "the winner's event"}},
       5},
      {"malformed epochs never count",
       {{"x", nullopt, V::StaleClaim, "not a number"},
        {"-1", nullopt, V::StaleClaim, "a sign"},
        {"", nullopt, V::StaleClaim, "empty"},
        {"1234567890123456789", nullopt, V::StaleClaim, "19 digits"},
        {nullopt, "0x0", V::Fenced, "an event's epoch that is not a number"},
        {nullopt, "", V::Fenced, "an empty epoch"},
        {"007", nullopt, V::Claimed, "leading zeros are digits"},
        {nullopt, "7", V::Counts, "the same epoch written plainly"}},
       7},
  };
  return cases;
}

}  // namespace petstore::testing
