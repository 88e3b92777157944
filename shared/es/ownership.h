#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "es/partition_writer.h"
#include "kafka/group_membership.h"

namespace petstore::es {

// The partitions of one events topic this replica writes: the ones the
// group assigns it, each claimed with a PartitionWriter, whose claim folds
// the partition into the owner's State. A replica that stops
// loses its partitions to the others, whose claims make the broker fence
// its writers.
// Under es::OwnerLog, the write path of every aggregate topic.
class Ownership {
 public:
  struct Settings {
    std::string brokers;
    std::string group;  // one per service: its replicas share out the topic
    std::string topic;
    std::string owner;  // this replica
    int linger_ms = 2;  // of each partition's producer (PartitionWriter::Settings)
    int delivery_timeout_ms = 5000;
    // How long a partition whose writer was let go (release) waits before
    // it is claimed again. A claim fences whoever holds the partition, so a
    // replica that lost it while paused, and has not heard so from its
    // group yet, must not take it straight back from its new owner: the
    // group tells it within a heartbeat or two.
    std::chrono::milliseconds reclaim_after{1500};
  };
  // The owner's state, kept per partition. Partitions are claimed side by
  // side: forget() and fold() of different partitions may run at the same
  // time, on different threads; those of one partition never do.
  class State {
   public:
    virtual ~State() = default;
    // The partition is being claimed (its fold starts again from its first
    // record) or has moved to another replica: drop what was folded of it.
    virtual void forget(std::int32_t partition) = 0;
    // The next record that counts in a partition being claimed, in order.
    virtual void fold(std::int32_t partition, const kafka::Message& m) = 0;
  };

  Ownership(Settings settings, State& state);

  // Follows the group for up to `wait`: claims the partitions newly
  // assigned and lets go of the ones taken away. Throws kafka::Unavailable
  // when a claim cannot be made (the partition is tried again next time).
  // One thread polls; writer() and owned() may be called from any.
  void poll(std::chrono::milliseconds wait);

  // The writer of `partition` while this replica owns it; null otherwise.
  // Shared: a caller mid-append keeps its writer, which is fenced if the
  // partition moves meanwhile.
  [[nodiscard]] std::shared_ptr<PartitionWriter> writer(std::int32_t partition) const;
  // Drops `writer`, if it is still the partition's: the next poll claims
  // the partition anew while the group still assigns it here.
  void release(std::int32_t partition, const PartitionWriter& writer);
  // Gives every partition up and leaves the group, for good: the writers go
  // (a command finds none: NotOwner) and the state forgets their folds,
  // then the group shares the partitions out among the other replicas at
  // once. A replica that stops does it as soon as it has answered the
  // requests in progress (service::serve). Not beside a poll.
  void leave();
  [[nodiscard]] std::vector<std::int32_t> owned() const;
  // Whether the last poll ended with every partition the group assigns
  // here claimed (none assigned counts): the replica takes its share of
  // commands, and forwards the rest.
  [[nodiscard]] bool settled() const { return settled_; }

 private:
  // Claims partition `p` (its fold starts again from its first record) and
  // adds its writer. Throws as poll() does.
  void claim(std::int32_t p);

  Settings settings_;
  State& state_;
  kafka::GroupMembership membership_;
  mutable std::mutex mutex_;  // guards writers_ (held only to read or change it, never while claiming)
  std::map<std::int32_t, std::shared_ptr<PartitionWriter>> writers_;
  std::map<std::int32_t, std::chrono::steady_clock::time_point> released_;  // when (release)
  std::atomic<bool> settled_{false};
};

}  // namespace petstore::es
