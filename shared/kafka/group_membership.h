#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "kafka/handles.h"

namespace petstore::kafka {

// Membership of a consumer group used to share out ownership, not to
// consume: the group assigns this member some partitions of `topic`, and
// nothing is fetched (assigned partitions are paused) or committed. A member
// that stops (a crash, or a pause past session.timeout.ms) loses its
// partitions to the others.
class GroupMembership {
 public:
  GroupMembership(const std::string& brokers, const std::string& group, const std::string& member,
                  const std::string& topic);
  // Leaves the group at once, so the partitions move now, not after the
  // session timeout.
  ~GroupMembership();
  GroupMembership(const GroupMembership&) = delete;
  GroupMembership& operator=(const GroupMembership&) = delete;

  // Serves the group protocol for up to `wait` and returns the partitions
  // assigned to this member now, in order; none once it has left.
  std::vector<std::int32_t> poll(std::chrono::milliseconds wait);
  // Leaves the group now (the destructor's work, done early, once): its
  // partitions go to the other members in the rebalance this starts.
  // Not beside a poll: the caller's thread polls, or has stopped.
  void leave();
  // Whether the group has assigned this member its share (none is a
  // share too) and no rebalance has taken it away since.
  [[nodiscard]] bool assigned() const { return assigned_now_; }

 private:
  static void on_rebalance(rd_kafka_t* rk, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* parts,
                           void* opaque);

  HandlePtr rk_;
  std::vector<std::int32_t> assigned_;
  bool assigned_now_ = false;
  bool left_ = false;
};

}  // namespace petstore::kafka
