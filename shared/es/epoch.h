#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace petstore::es {

// The single writer's fence, kept in the log itself (docs/consistency.md,
// "Fencing: what the local broker shows"). A partition's owner starts by
// appending a claim: a record with the header kClaimHeader holding an
// epoch above every earlier one. Every event it then appends carries its
// epoch in kEpochHeader. Whoever reads the partition in order applies the
// same rule, so all readers agree on which records count:
//   - a claim above the current epoch starts that epoch; any other claim is
//     stale (it lost a race with the claim before it);
//   - an event counts only when its epoch is the current one. An event of an
//     older epoch was appended by an owner that had been replaced (a paused
//     replica that resumed): it is fenced, in the log and ignored.
// A record with neither header is an event of epoch 0: the log as written
// before any claim.
inline constexpr std::string_view kClaimHeader = "petstore_claim";
inline constexpr std::string_view kEpochHeader = "petstore_epoch";

class EpochRule {
 public:
  enum class Verdict {
    Counts,     // an event of the current epoch
    Claimed,    // a claim that starts a new epoch
    Fenced,     // an event of another epoch
    StaleClaim  // a claim at or below the current epoch
  };

  // The next record of the partition, by its two headers (absent: nullopt;
  // a value that is not a decimal epoch counts as absent).
  Verdict next(std::optional<std::string_view> claim, std::optional<std::string_view> epoch);

  // The epoch of the last claim that counted (0 before any).
  [[nodiscard]] std::int64_t current() const { return current_; }

  // A header's epoch: decimal digits, no sign, at most 18 of them.
  static std::optional<std::int64_t> parse(std::optional<std::string_view> value);

 private:
  std::int64_t current_ = 0;
};

}  // namespace petstore::es
