#include "kafka/partition_reader.h"

namespace petstore::kafka {

PartitionReader::PartitionReader(const std::string& brokers, const std::string& topic, std::int32_t partition,
                                 std::int64_t from, int fetch_wait_max_ms)
    : topic_(topic), partition_(partition) {
  rk_ = make_handle(RD_KAFKA_CONSUMER, make_client_conf({
                                           {"bootstrap.servers", brokers},
                                           // Assigned by hand; librdkafka still wants a group name.
                                           {"group.id", "petstore-partition-reader"},
                                           {"enable.auto.commit", "false"},
                                           {"enable.auto.offset.store", "false"},
                                           {"enable.partition.eof", "false"},
                                           {"isolation.level", "read_committed"},
                                           // A reader that starts at an offset it names reads from
                                           // there or fails: a broker that no longer holds it
                                           // must not move it on to another offset unseen.
                                           {"auto.offset.reset", "error"},
                                           // Kafka answers as soon as a record arrives; the wait
                                           // bounds an idle reader's empty fetches.
                                           {"fetch.wait.max.ms", std::to_string(fetch_wait_max_ms)},
                                       }));
  rd_kafka_poll_set_consumer(rk_.get());
  const PartitionListPtr list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), topic.c_str(), partition)->offset = from;
  if (const auto e = rd_kafka_assign(rk_.get(), list.get()); e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw Unavailable(
        "kafka: cannot assign " + topic + "/" + std::to_string(partition) + ": " + rd_kafka_err2str(e),
        false);
  }
  queue_.reset(rd_kafka_queue_get_consumer(rk_.get()));
}

PartitionReader::~PartitionReader() {
  queue_.reset();
  rd_kafka_consumer_close(rk_.get());
}

std::optional<Message> PartitionReader::next(std::chrono::milliseconds wait) {
  const MessagePtr m(rd_kafka_consume_queue(queue_.get(), static_cast<int>(wait.count())));
  if (!m) {
    return std::nullopt;
  }
  if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw Unavailable("kafka: reading " + topic_ + "/" + std::to_string(partition_) + ": " +
                          rd_kafka_message_errstr(m.get()),
                      false);
  }
  return to_message(*m);
}

std::int64_t PartitionReader::position() {
  const PartitionListPtr list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), topic_.c_str(), partition_);
  if (const auto e = rd_kafka_position(rk_.get(), list.get()); e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw Unavailable("kafka: position in " + topic_ + ": " + rd_kafka_err2str(e), false);
  }
  return list->elems[0].offset;
}

std::int64_t PartitionReader::end(int timeout_ms) {
  return query_end(rk_.get(), topic_, partition_, timeout_ms);
}

}  // namespace petstore::kafka
