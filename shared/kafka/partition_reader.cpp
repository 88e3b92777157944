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
  if (m->offset <= handed_over_) {
    return std::nullopt;  // fetched again after a late seek (resume_at)
  }
  handed_over_ = m->offset;
  return to_message(*m);
}

void PartitionReader::pause() {
  const PartitionListPtr list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), topic_.c_str(), partition_);
  auto e = rd_kafka_pause_partitions(rk_.get(), list.get());
  if (e == RD_KAFKA_RESP_ERR_NO_ERROR) {
    e = list->elems[0].err;
  }
  if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw Unavailable(
        "kafka: cannot pause " + topic_ + "/" + std::to_string(partition_) + ": " + rd_kafka_err2str(e),
        false);
  }
}

void PartitionReader::resume_at(std::int64_t offset) {
  const PartitionListPtr list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), topic_.c_str(), partition_)->offset = offset;
  auto e = rd_kafka_resume_partitions(rk_.get(), list.get());
  if (e == RD_KAFKA_RESP_ERR_NO_ERROR) {
    e = list->elems[0].err;
  }
  // Resuming alone clears a flag that the partition's broker thread reads
  // only when it next wakes, up to a second later; a seek wakes it ("seek
  // done", v2.0.2 src/rdkafka_partition.c, rd_kafka_toppar_seek), so the
  // fetch goes out at once, and from the offset the caller names.
  //
  // The seek is not waited for (timeout 0: queued, and IN_PROGRESS). The
  // client's main thread carries it out, and a command waiting on that
  // thread once waited its whole 5 s and failed with 503 while the records
  // it wanted were in the log (store_saga_test on a slow machine). The
  // caller's own deadline
  // bounds the wait for records instead. A seek carried out late moves the
  // fetch back to `offset` after records from there on may already have
  // been handed over: next() drops those the second time.
  if (e == RD_KAFKA_RESP_ERR_NO_ERROR) {
    const ErrorPtr err(rd_kafka_seek_partitions(rk_.get(), list.get(), 0));
    e = err ? rd_kafka_error_code(err.get()) : list->elems[0].err;
    if (e == RD_KAFKA_RESP_ERR__IN_PROGRESS) {
      e = RD_KAFKA_RESP_ERR_NO_ERROR;
    }
  }
  if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw Unavailable(
        "kafka: cannot resume " + topic_ + "/" + std::to_string(partition_) + ": " + rd_kafka_err2str(e),
        false);
  }
}

std::int64_t PartitionReader::end(int timeout_ms) {
  std::int64_t low = 0;
  std::int64_t high = 0;
  if (const auto e =
          rd_kafka_query_watermark_offsets(rk_.get(), topic_.c_str(), partition_, &low, &high, timeout_ms);
      e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw Unavailable("kafka watermarks for " + topic_ + ": " + rd_kafka_err2str(e), false);
  }
  return high;
}

}  // namespace petstore::kafka
