#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <librdkafka/rdkafka.h>

namespace petstore::kafka {

// The Kafka clients' metrics, in the process's registry:
// - petstore_kafka_produce_latency_seconds{topic}: from a record handed to
//   librdkafka to its delivery report;
// - petstore_kafka_produce_errors_total{topic}: records whose report was a
//   failure;
// - petstore_kafka_transactions_total{outcome}: commits (committed,
//   aborted: refused and rolled back, failed: fenced or timed out with an
//   unknown outcome);
// - petstore_kafka_transaction_records_total{topic}: the records of the
//   committed transactions (divided by the commits: records per
//   transaction, which bench/run prints);
// - petstore_kafka_consumer_position{group,topic,partition} and
//   petstore_kafka_consumer_lag{group,topic,partition}: where a consumer
//   stands, and how far behind the partition's end it last saw.
namespace client_metrics {

void delivered(const rd_kafka_message_t& message);
void transaction(const char* outcome);
void committed_records(const std::string& topic, std::size_t records);

// Records where `rk` (a consumer of `group`) stands in its assigned
// partitions, at most once a second; cheap otherwise (librdkafka's cached
// positions and watermarks, no request).
void consumer_positions(rd_kafka_t* rk, const std::string& group);

}  // namespace client_metrics
}  // namespace petstore::kafka
