#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>

#include "kafka/consumer.h"

namespace petstore::es {

// The single writer's fence, kept in the log itself (docs/consistency.md). A partition's owner starts by
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

// A record's two fence headers (absent: nullopt). A claim record carries no
// CloudEvents headers: it is not an event, and readers never decode it.
struct FenceHeaders {
  std::optional<std::string_view> claim;
  std::optional<std::string_view> epoch;
};
FenceHeaders fence_headers(const kafka::Message& m);

class EpochRule {
 public:
  enum class Verdict {
    Counts,     // an event of the current epoch
    Claimed,    // a claim that starts a new epoch
    Fenced,     // an event of another epoch
    StaleClaim  // a claim at or below the current epoch
  };

  // A reader that resumes a partition past its start, at the epoch it
  // recorded with its position.
  explicit EpochRule(std::int64_t current = 0) : current_(current) {}

  // The next record of the partition, by its two headers (absent: nullopt).
  // A claim whose value is not a decimal epoch is stale; an event whose
  // epoch is not one is fenced.
  Verdict next(std::optional<std::string_view> claim, std::optional<std::string_view> epoch);
  Verdict next(const FenceHeaders& h) { return next(h.claim, h.epoch); }

  // The epoch of the last claim that counted (0 before any).
  [[nodiscard]] std::int64_t current() const { return current_; }

  // A header's epoch: decimal digits, no sign, at most 18 of them.
  static std::optional<std::int64_t> parse(std::optional<std::string_view> value);

 private:
  std::int64_t current_ = 0;
};

// The rule for each partition a reader reads, in order per partition.
class Fences {
 public:
  EpochRule::Verdict next(const kafka::Message& m) {
    return rules_[{m.topic, m.partition}].next(fence_headers(m));
  }
  // A reader resuming `tp` past its start, at the epoch it recorded there.
  void resume(const kafka::TopicPartition& tp, std::int64_t epoch) {
    rules_.insert_or_assign(tp, EpochRule(epoch));
  }
  [[nodiscard]] std::int64_t current(const kafka::TopicPartition& tp) const {
    const auto it = rules_.find(tp);
    return it == rules_.end() ? 0 : it->second.current();
  }
  void clear() { rules_.clear(); }

 private:
  std::map<kafka::TopicPartition, EpochRule> rules_;
};

}  // namespace petstore::es
