#include "kafka/group_offsets.h"

namespace petstore::kafka {

GroupOffsets::GroupOffsets(const std::string& brokers, std::string group)
    : group_(std::move(group)),
      rk_(make_handle(RD_KAFKA_CONSUMER, make_client_conf({
                                             {"bootstrap.servers", brokers},
                                             {"group.id", group_},
                                             {"enable.auto.commit", "false"},
                                         }))) {}

GroupOffsets::~GroupOffsets() {
  rd_kafka_consumer_close(rk_.get());
}

std::int64_t GroupOffsets::committed(const std::string& topic, std::int32_t partition, int timeout_ms) {
  const PartitionListPtr list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), topic.c_str(), partition);
  auto e = rd_kafka_committed(rk_.get(), list.get(), timeout_ms);
  if (e == RD_KAFKA_RESP_ERR_NO_ERROR) {
    e = list->elems[0].err;
  }
  if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw Unavailable("kafka: committed offset of " + group_ + " in " + topic + "/" +
                          std::to_string(partition) + ": " + rd_kafka_err2str(e),
                      false);
  }
  return list->elems[0].offset < 0 ? -1 : list->elems[0].offset;
}

}  // namespace petstore::kafka
