#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "kafka/handles.h"
#include "kafka/producer.h"

namespace petstore::kafka {

struct Message {
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t offset = 0;
  std::string key;
  std::string value;
  std::vector<Header> headers;

  [[nodiscard]] const std::string* header(std::string_view name) const;
};

// Copies a consumed librdkafka message (key, value, headers) into a Message.
Message to_message(const rd_kafka_message_t& m);
// The same into `out`, reusing the memory its strings already hold: a
// reader of many records that copies each into one Message allocates
// nothing once the first few have been read.
void copy_into(const rd_kafka_message_t& m, Message& out);

struct TopicPartition {
  std::string topic;
  std::int32_t partition = 0;
  bool operator<(const TopicPartition& o) const {
    return topic != o.topic ? topic < o.topic : partition < o.partition;
  }
};

struct ConsumerSettings {
  std::string bootstrap_servers;
  std::string group_id;
  std::string client_id;
  std::vector<std::string> topics;
  // How long the broker may hold a fetch with no data. Small values trade idle
  // CPU for lower projection latency.
  int fetch_wait_max_ms = 100;
};

// Given the partitions just assigned, returns the offset to start each one
// at (absent: the beginning; RD_KAFKA_OFFSET_INVALID: the group's committed
// offset). The projection answers from Redis (its own applied position), so
// the read model, not Kafka's committed offsets, decides where replay
// resumes; a reactor resumes at its committed offsets.
using StartOffsets =
    std::function<std::map<TopicPartition, std::int64_t>(const std::vector<TopicPartition>&)>;

// A consumer-group member reading read_committed: records of aborted
// transactions never reach it. Offsets are committed to Kafka only after
// the caller says a message was applied (or, with commit_positions, that
// everything polled was).
//
// A partition whose log no longer holds the position the consumer resumes
// at (OFFSET_OUT_OF_RANGE: records were lost, or deleted) is never reset
// silently: the consumer logs an alert, tells `on_loss`, and reads the
// partition again from its start.
class Consumer {
 public:
  using OnLoss = std::function<void(const TopicPartition&)>;
  Consumer(const ConsumerSettings& settings, StartOffsets start_offsets, OnLoss on_loss = {});
  ~Consumer();
  Consumer(const Consumer&) = delete;
  Consumer& operator=(const Consumer&) = delete;

  // Up to `max` messages; waits at most `wait` for the first one.
  std::vector<Message> poll(size_t max, std::chrono::milliseconds wait);

  // Records that everything up to and including `m` has been applied.
  void applied(const Message& m);
  // Records that everything polled so far has been applied, transaction
  // markers included (they move the position but are never handed over),
  // and commits it to Kafka without waiting.
  void commit_positions();
  // Where the consumer stands in each assigned partition: the offset
  // after the last record or marker polled (absent before any).
  std::map<TopicPartition, std::int64_t> positions();

  // Moves assigned partitions back to where StartOffsets says (as on
  // assignment: the group's committed offset for RD_KAFKA_OFFSET_INVALID,
  // the beginning when it names none): for a caller whose applied
  // positions were lost, or who gives a batch back. Records already
  // fetched past that point are dropped. Throws kafka::Unavailable, or
  // whatever StartOffsets throws.
  void rewind(const std::vector<TopicPartition>& partitions);

  // The partitions currently assigned to this member.
  std::vector<TopicPartition> assignment();

 private:
  static void on_rebalance(rd_kafka_t* rk, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* parts,
                           void* opaque);

  // Sets the offset each partition of `parts` starts at: StartOffsets',
  // the group's committed one where it names RD_KAFKA_OFFSET_INVALID, the
  // beginning where there is none. Throws.
  void resolve_start(rd_kafka_t* rk, rd_kafka_topic_partition_list_t* parts);
  // resolve_start on assignment, or the beginning if that fails.
  void start_at(rd_kafka_t* rk, rd_kafka_topic_partition_list_t* parts);
  // Reads `tp` again from its start, after a loss.
  void replay(const TopicPartition& tp);

  StartOffsets start_offsets_;
  OnLoss on_loss_;
  std::string group_;
  HandlePtr rk_;
};

}  // namespace petstore::kafka
