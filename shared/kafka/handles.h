#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include <librdkafka/rdkafka.h>

namespace petstore::kafka {

// The broker did not take a record, or could not be asked. `possibly_persisted`
// is true when the record may still be in the log (a timed-out in-flight
// request): callers must not assume it is absent.
class Unavailable : public std::runtime_error {
 public:
  Unavailable(const std::string& what, bool possibly_persisted)
      : std::runtime_error(what), possibly_persisted_(possibly_persisted) {}
  [[nodiscard]] bool possibly_persisted() const noexcept { return possibly_persisted_; }

 private:
  bool possibly_persisted_;
};

struct ConfDeleter {
  void operator()(rd_kafka_conf_t* c) const noexcept { rd_kafka_conf_destroy(c); }
};
using ConfPtr = std::unique_ptr<rd_kafka_conf_t, ConfDeleter>;

struct HandleDeleter {
  void operator()(rd_kafka_t* rk) const noexcept { rd_kafka_destroy(rk); }
};
using HandlePtr = std::unique_ptr<rd_kafka_t, HandleDeleter>;

struct MessageDeleter {
  void operator()(rd_kafka_message_t* m) const noexcept { rd_kafka_message_destroy(m); }
};
using MessagePtr = std::unique_ptr<rd_kafka_message_t, MessageDeleter>;

struct PartitionListDeleter {
  void operator()(rd_kafka_topic_partition_list_t* l) const noexcept {
    rd_kafka_topic_partition_list_destroy(l);
  }
};
using PartitionListPtr = std::unique_ptr<rd_kafka_topic_partition_list_t, PartitionListDeleter>;

struct TopicDeleter {
  void operator()(rd_kafka_topic_t* t) const noexcept { rd_kafka_topic_destroy(t); }
};
using TopicPtr = std::unique_ptr<rd_kafka_topic_t, TopicDeleter>;

struct MetadataDeleter {
  void operator()(const rd_kafka_metadata_t* m) const noexcept { rd_kafka_metadata_destroy(m); }
};
using MetadataPtr = std::unique_ptr<const rd_kafka_metadata_t, MetadataDeleter>;

struct QueueDeleter {
  void operator()(rd_kafka_queue_t* q) const noexcept { rd_kafka_queue_destroy(q); }
};
using QueuePtr = std::unique_ptr<rd_kafka_queue_t, QueueDeleter>;

// The error objects of librdkafka's transactional API (rd_kafka_error_t).
struct ErrorDeleter {
  void operator()(rd_kafka_error_t* e) const noexcept { rd_kafka_error_destroy(e); }
};
using ErrorPtr = std::unique_ptr<rd_kafka_error_t, ErrorDeleter>;

// Builds a librdkafka configuration, failing loudly on any property librdkafka
// refuses (a typo in a property name must not be silently ignored).
ConfPtr make_conf(const std::map<std::string, std::string>& properties);

// make_conf for the services' own clients, with what all of them share
// unless `properties` says otherwise:
// - reconnect.backoff.max.ms 1000: librdkafka backs off up to 10 s between
//   attempts to reach a broker that is down, so a client could ignore a
//   broker for seconds after it came back. A writer reading back its record
//   then ran out of its time (pets_faults_test: 503 "did not confirm the
//   write in time" just after an outage).
// - socket.nagle.disable: our requests are small and waited for.
ConfPtr make_client_conf(std::map<std::string, std::string> properties);

// Creates a client from a configuration, which it takes (librdkafka owns the
// configuration once the client exists, and it is destroyed if not).
// Throws Unavailable with librdkafka's reason if the client cannot be made.
HandlePtr make_handle(rd_kafka_type_t type, ConfPtr conf);

// Number of partitions of a topic, from the cluster's metadata.
int partition_count(rd_kafka_t* rk, const std::string& topic, int timeout_ms);

// Whether an answer says that a partition's leader is being elected or has
// moved (a topic just created, a broker lost, or metadata gone stale):
// asked again after kLeaderRetry and refresh_metadata, the leader answers.
bool leader_moving(rd_kafka_resp_err_t err);
inline constexpr std::chrono::milliseconds kLeaderRetry{50};

// Asks the cluster for `topic`'s metadata now, which updates what `rk`
// keeps of it. librdkafka refreshes a stale leader by itself only for the
// topics its handle produces to or consumes: a handle that only asks for
// offsets would keep asking a broker that no longer leads the partition
// until its cache expires, minutes later. False when the cluster did not
// answer in time: the caller asks again anyway, and its answer says why.
bool refresh_metadata(rd_kafka_t* rk, const std::string& topic, int timeout_ms) noexcept;

// A partition's first offset still in the log and its end: the high
// watermark, or the last stable offset for a read_committed handle.
struct Watermarks {
  std::int64_t low = 0;
  std::int64_t high = 0;
};
// Asks the partition's leader, looking a moved (or silent) leader up
// again until `timeout_ms` has passed. Throws Unavailable.
Watermarks query_watermarks(rd_kafka_t* rk, const std::string& topic, std::int32_t partition, int timeout_ms);
// The end alone, the same way.
std::int64_t query_end(rd_kafka_t* rk, const std::string& topic, std::int32_t partition, int timeout_ms);

}  // namespace petstore::kafka
