#include "kafka/group_membership.h"

#include <algorithm>

#include "log/log.h"

namespace petstore::kafka {

GroupMembership::GroupMembership(const std::string& brokers, const std::string& group,
                                 const std::string& member, const std::string& topic) {
  auto conf = make_client_conf({
      {"bootstrap.servers", brokers},
      {"group.id", group},
      {"client.id", member},
      {"enable.auto.commit", "false"},
      {"enable.auto.offset.store", "false"},
      {"session.timeout.ms", "6000"},
      {"heartbeat.interval.ms", "500"},
      // A rebalance moves only the partitions that change hands (KIP-429):
      // with the eager protocol every member gave up all of its partitions
      // on every rebalance, and its writers folded each again from the
      // first record. Over a fault campaign's pauses, the inventory's two
      // replicas spent longer re-folding 18 partitions, one after another,
      // than the next rebalance left them (docs/reliability.md).
      {"partition.assignment.strategy", "cooperative-sticky"},
  });
  rd_kafka_conf_set_rebalance_cb(conf.get(), &GroupMembership::on_rebalance);
  rd_kafka_conf_set_opaque(conf.get(), this);
  rk_ = make_handle(RD_KAFKA_CONSUMER, std::move(conf));
  rd_kafka_poll_set_consumer(rk_.get());
  const PartitionListPtr subscription(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(subscription.get(), topic.c_str(), RD_KAFKA_PARTITION_UA);
  if (const auto e = rd_kafka_subscribe(rk_.get(), subscription.get()); e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw Unavailable(std::string("kafka subscribe: ") + rd_kafka_err2str(e), false);
  }
}

GroupMembership::~GroupMembership() {
  leave();
}

void GroupMembership::leave() {
  if (left_) {
    return;
  }
  left_ = true;
  // Revokes what is assigned (the rebalance callback runs on this thread)
  // and sends LeaveGroup, so the group rebalances without waiting for
  // this member's session to time out.
  rd_kafka_consumer_close(rk_.get());
  assigned_.clear();
  assigned_now_ = false;
}

void GroupMembership::on_rebalance(rd_kafka_t* rk, rd_kafka_resp_err_t err,
                                   rd_kafka_topic_partition_list_t* parts, void* opaque) {
  auto* self = static_cast<GroupMembership*>(opaque);
  // The assignor is cooperative (above): each callback adds or removes
  // only the partitions that change hands.
  if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
    // Called once at the end of every rebalance, even when it adds nothing.
    if (const ErrorPtr e(rd_kafka_incremental_assign(rk, parts)); e) {
      // The group goes on without this member's answer: a rebalance that
      // follows takes the partitions back.
      log::warn("kafka: cannot add partitions to the assignment: {}", rd_kafka_error_string(e.get()));
    }
    for (int i = 0; i < parts->cnt; ++i) {
      self->assigned_.push_back(parts->elems[i].partition);
    }
    std::ranges::sort(self->assigned_);
    self->assigned_now_ = true;
    // Owned, not consumed: nothing is fetched for these partitions.
    rd_kafka_pause_partitions(rk, parts);
    return;
  }
  // Revoked (or lost: a member paused past its session), or an error.
  self->assigned_now_ = false;
  if (err == RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS) {
    if (const ErrorPtr e(rd_kafka_incremental_unassign(rk, parts)); e) {
      log::warn("kafka: cannot remove partitions from the assignment: {}", rd_kafka_error_string(e.get()));
    }
    for (int i = 0; i < parts->cnt; ++i) {
      std::erase(self->assigned_, parts->elems[i].partition);
    }
    return;
  }
  self->assigned_.clear();
  rd_kafka_assign(rk, nullptr);
}

std::vector<std::int32_t> GroupMembership::poll(std::chrono::milliseconds wait) {
  if (left_) {
    return {};
  }
  // Messages fetched before the pause took effect, and errors, are dropped:
  // only the rebalance callback matters here.
  const MessagePtr m(rd_kafka_consumer_poll(rk_.get(), static_cast<int>(wait.count())));
  return assigned_;
}

}  // namespace petstore::kafka
