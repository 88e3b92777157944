#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace petstore::es {

// Why the write path stopped a command. The write path knows nothing of
// HTTP: the edge (http::error_from) gives each condition its status, code
// and Retry-After, in one place.
enum class Errc {
  // The read model is not a whole fold of the log: it was wiped, lost
  // positions, or is being rebuilt (projection::Readiness). Nothing was
  // decided and nothing appended; retry once it is ready.
  NotReady,
  // The read model did not reach the log's end in time (catching up after a
  // dead lock holder, or for a command's own event), or too little of the
  // lease was left to append safely. Nothing was appended.
  Lagging,
  // An Idempotency-Key was presented again with a different request.
  IdempotencyKeyReused,
  // A request with this Idempotency-Key is still running elsewhere.
  RequestInProgress,
  // The partition's writer has stopped (es::PartitionWriter): the broker
  // fenced it, or it found another writer's records. Nothing of this
  // command is in the log; the partition is claimed anew.
  Fenced,
  // The command's event may or may not be in the log: its transaction's
  // commit got no answer, or the producer was fenced during it. The
  // partition is claimed anew, which settles the transaction either way;
  // aggregate() names what to look up to learn which.
  OutcomeUnknown,
  // This replica does not own the aggregate's partition (es::OwnerLog): the
  // group has given it to another replica, or is still sharing the
  // partitions out. Nothing was decided or appended.
  NotOwner,
};

class Error : public std::runtime_error {
 public:
  Error(Errc code, const std::string& message, std::optional<int> retry_after_seconds = std::nullopt)
      : std::runtime_error(message), code_(code), retry_after_seconds_(retry_after_seconds) {}

  [[nodiscard]] Errc code() const noexcept { return code_; }
  // Set when the write path knows better than the edge's default when a
  // retry can succeed (the remaining lease of a request in progress).
  [[nodiscard]] std::optional<int> retry_after_seconds() const noexcept { return retry_after_seconds_; }

  // NotOwner: where the owner of the partition last said it answers (its
  // base URL, es::OwnerHints), when known. A hint to route by, never a
  // promise: the partition may have moved since.
  [[nodiscard]] const std::string& owner_hint() const noexcept { return owner_hint_; }
  Error&& with_owner_hint(std::string url) && {
    owner_hint_ = std::move(url);
    return std::move(*this);
  }
  // OutcomeUnknown: the aggregate the command wrote, as its events name it
  // (ce_subject), empty if none.
  [[nodiscard]] const std::string& aggregate() const noexcept { return aggregate_; }
  Error&& with_aggregate(std::string subject) && {
    aggregate_ = std::move(subject);
    return std::move(*this);
  }

 private:
  Errc code_;
  std::optional<int> retry_after_seconds_;
  std::string owner_hint_;
  std::string aggregate_;
};

}  // namespace petstore::es
