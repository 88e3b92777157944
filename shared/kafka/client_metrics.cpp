#include "kafka/client_metrics.h"

#include <chrono>

#include "kafka/handles.h"
#include "metrics/registry.h"

namespace petstore::kafka::client_metrics {

namespace {

std::vector<double> produce_buckets() {
  return {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};
}

}  // namespace

void delivered(const rd_kafka_message_t& message) {
  static auto& latency = metrics::Registry::global().histogram(
      "petstore_kafka_produce_latency_seconds",
      "From a record handed to the producer to its delivery report.", {"topic"}, produce_buckets());
  static auto& errors = metrics::Registry::global().counter(
      "petstore_kafka_produce_errors_total", "Records whose delivery report was a failure.", {"topic"});
  const std::string topic = message.rkt != nullptr ? rd_kafka_topic_name(message.rkt) : "";
  if (message.err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    errors.with({topic}).inc();
    return;
  }
  if (const auto us = rd_kafka_message_latency(&message); us >= 0) {
    latency.with({topic}).observe(static_cast<double>(us) / 1e6);
  }
}

void transaction(const char* outcome) {
  static auto& transactions = metrics::Registry::global().counter(
      "petstore_kafka_transactions_total",
      "Transactions ended: committed, aborted (refused and rolled back), or failed (fenced, or unknown).",
      {"outcome"});
  transactions.with({outcome}).inc();
}

void committed_records(const std::string& topic, std::size_t records) {
  static auto& counted = metrics::Registry::global().counter(
      "petstore_kafka_transaction_records_total", "The records of the committed transactions.", {"topic"});
  counted.with({topic}).inc(static_cast<double>(records));
}

void consumer_positions(rd_kafka_t* rk, const std::string& group) {
  static auto& position = metrics::Registry::global().gauge("petstore_kafka_consumer_position",
                                                            "The offset a consumer reads next, by partition.",
                                                            {"group", "topic", "partition"});
  static auto& lag = metrics::Registry::global().gauge(
      "petstore_kafka_consumer_lag", "Records between a consumer's position and the partition's end.",
      {"group", "topic", "partition"});
  thread_local std::chrono::steady_clock::time_point next;
  const auto now = std::chrono::steady_clock::now();
  if (now < next) {
    return;
  }
  next = now + std::chrono::seconds(1);
  rd_kafka_topic_partition_list_t* raw = nullptr;
  if (rd_kafka_assignment(rk, &raw) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return;
  }
  const PartitionListPtr list(raw);
  if (rd_kafka_position(rk, list.get()) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return;
  }
  for (int i = 0; i < list->cnt; ++i) {
    const auto& el = list->elems[i];
    if (el.offset < 0) {
      continue;  // nothing read there yet
    }
    std::int64_t low = 0;
    std::int64_t high = 0;
    const metrics::Labels labels{group, el.topic, std::to_string(el.partition)};
    position.with(labels).set(static_cast<double>(el.offset));
    if (rd_kafka_get_watermark_offsets(rk, el.topic, el.partition, &low, &high) ==
            RD_KAFKA_RESP_ERR_NO_ERROR &&
        high >= 0) {
      lag.with(labels).set(static_cast<double>(std::max<std::int64_t>(0, high - el.offset)));
    }
  }
}

}  // namespace petstore::kafka::client_metrics
