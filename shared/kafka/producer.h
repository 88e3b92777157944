#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "kafka/handles.h"

namespace petstore::kafka {

struct Header {
  std::string name;
  std::string value;
};

struct Record {
  std::string topic;
  std::string key;
  std::string value;
  std::vector<Header> headers;
};

// Where the broker put a record: the caller uses it to wait for projections.
struct Position {
  std::int32_t partition = -1;
  std::int64_t offset = -1;
};

// Hands one record to librdkafka without waiting (rd_kafka_produceva): key,
// value and headers are copied; `partition` may be RD_KAFKA_PARTITION_UA (the
// configured partitioner), and `opaque` reaches the delivery report. Returns
// librdkafka's error code; only on NO_ERROR is the record queued (then the
// headers belong to it; otherwise they are freed here).
rd_kafka_resp_err_t enqueue(rd_kafka_t* rk, const Record& record, std::int32_t partition, void* opaque);

// How much later than its delivery timeout (message.timeout.ms) a record's
// delivery report can come. librdkafka does not fail a message the moment
// its timeout passes: it scans for timed-out messages on a one-second timer
// (v2.0.2, src/rdkafka.c: rd_kafka_1s_tmr_cb calls rd_kafka_topic_scan_all)
// and for timed-out requests once a second per broker
// (src/rdkafka_broker.c: rkb_timeout_scan_intvl, 1000000 us). So a report
// may come up to a second late, plus the time it takes to reach us, which
// on a loaded machine is a good part of a second more.
inline constexpr std::chrono::milliseconds kDeliveryReportLateness{1250};

struct ProducerSettings {
  std::string bootstrap_servers;
  std::string client_id;
  int linger_ms = 2;
  int delivery_timeout_ms = 5000;
  // Set: a transactional producer (Producer::init_transactions). Kafka lets
  // one producer at a time hold a transactional.id: the broker fences every
  // earlier holder when a new one initialises it.
  std::string transactional_id;
  // How long the broker lets a transaction stay open before aborting it
  // itself: the bound on how long a writer that died mid-transaction holds
  // back every read_committed reader of its partitions.
  int transaction_timeout_ms = 10000;
};

// An idempotent producer (acks=all, enable.idempotence): a record is reported
// delivered only once every in-sync replica has it, at the offset the broker
// gave it (a report without one is an outcome unknown: on_delivery), and
// Kafka's sequence check never writes a retry twice.
// Partitions are chosen by murmur2 of the key, the Java client's scheme, so
// other tools agree on where an aggregate's events live.
//
// With a transactional.id (ProducerSettings), records are sent inside
// transactions: begin_transaction, send_to, commit_transaction. A fatal
// error then means the broker fenced this producer (a newer one holds its
// id) and is final: fenced() turns true and every later call throws.
//
// Without one, a fatal error (RD_KAFKA_RESP_ERR__FATAL) ends a librdkafka producer for
// good. Debian's librdkafka 2.0.2 raises one where no data is at risk: an
// idempotent producer whose request was cut off by a broker's loss, and
// whose next request then met OUT_OF_ORDER_SEQUENCE_NUMBER ("sequence
// desynchronization", fixed upstream in 2.3.0). The producer then builds a
// new librdkafka handle (a new producer id) and goes on. What the old handle
// still held is failed as an outcome unknown (Unavailable, possibly
// persisted): its callers answer 503 and never claim a record written or
// absent; records sent meanwhile are refused (Unavailable, not persisted).
class Producer {
 public:
  explicit Producer(const ProducerSettings& settings);
  ~Producer();
  Producer(const Producer&) = delete;
  Producer& operator=(const Producer&) = delete;

  // A record handed to librdkafka, its delivery report still to come.
  class Sent {
   public:
    // Blocks until the report; the same rules as append's.
    Position wait();

   private:
    friend class Producer;
    Sent(std::future<Position> report, std::chrono::steady_clock::time_point deadline)
        : report_(std::move(report)), deadline_(deadline) {}
    std::future<Position> report_;
    std::chrono::steady_clock::time_point deadline_;
  };

  // Hands `record` to librdkafka for `partition` without waiting: the
  // writer of a partition sends several before the first report, so they
  // travel in one request (es::PartitionWriter). Throws Unavailable when
  // librdkafka refuses it (nothing was sent).
  Sent send_to(const Record& record, std::int32_t partition);

  // Appends one record and blocks until the broker acknowledges it. Throws
  // Unavailable on failure, and, possibly persisted, when no report came
  // within delivery_timeout_ms + kDeliveryReportLateness: the wait is
  // bounded by our own clock, whatever librdkafka does.
  Position append(const Record& record);
  // The same into a partition the caller names, whatever the key.
  Position append_to(const Record& record, std::int32_t partition);

  // The partition `key` maps to in `topic` (same as append would choose).
  std::int32_t partition_for(const std::string& topic, const std::string& key);
  std::int32_t partitions(const std::string& topic);

  // The partition's first offset still in the log and its end as a
  // read_committed reader sees it: the last stable offset, which stops at
  // the first record of an open transaction (kafka::HighWatermark gives the
  // offset after the last record written).
  Watermarks watermarks(const std::string& topic, std::int32_t partition, int timeout_ms);
  // Every partition's, indexed by partition: two requests per leader in
  // all (ListOffsets for the earliest and the latest), not two per partition.
  std::vector<Watermarks> watermarks(const std::string& topic, int timeout_ms);

  // Whether the cluster answers a metadata request right now.
  bool reachable(int timeout_ms);

  // Transactions, for a producer with a transactional.id. init_transactions
  // takes the id over: the broker fences its earlier holder and completes
  // (aborts) the transaction that one left open, so once it returns the
  // partitions hold no open transaction of that id. Throws Unavailable
  // (nothing written) when the broker does not answer in time.
  void init_transactions(int timeout_ms);
  // Local: records sent from here on belong to the transaction.
  void begin_transaction();
  // Flushes the transaction's records and commits them, retrying what
  // librdkafka calls retriable until `timeout_ms`. Throws Unavailable:
  //   - not persisted when the broker refused the transaction and it was
  //     aborted (none of its records is visible to a read_committed reader);
  //   - possibly persisted when the outcome is unknown (no answer in time,
  //     or this producer was fenced meanwhile: fenced() then says so).
  void commit_transaction(int timeout_ms);
  // Aborts the open transaction: none of its records is ever visible to a
  // read_committed reader. Throws Unavailable (not persisted) when the
  // broker did not confirm the abort in time; the transaction is then
  // aborted by the next init_transactions of its id, or by its timeout.
  void abort_transaction(int timeout_ms);
  // Whether the broker has fenced this transactional producer.
  [[nodiscard]] bool fenced() const { return fenced_.load(); }
  [[nodiscard]] const std::string& transactional_id() const { return settings_.transactional_id; }

  // How many times a fatal error made this producer build a new handle.
  [[nodiscard]] int rebuilds() const { return rebuilds_.load(); }
  // Raises a fatal error in the current handle as librdkafka would
  // (rd_kafka_test_fatal_error, librdkafka's own hook for this), so tests
  // need not wait for 2.0.2's rare one.
  void raise_fatal_error(const char* reason);

 private:
  void poll_loop();
  [[nodiscard]] HandlePtr make() const;
  void rebuild();

  std::chrono::milliseconds report_deadline_;
  ProducerSettings settings_;
  std::atomic<bool> fatal_{false};   // set by librdkafka's error callback
  std::atomic<bool> fenced_{false};  // a transactional producer's fatal error
  std::atomic<int> rebuilds_{0};
  // The handle: replaced by the poller thread alone (rebuild), under the
  // lock held exclusively; every other use of it holds the lock shared.
  mutable std::shared_mutex handle_mutex_;
  HandlePtr rk_;
  std::mutex partitions_mutex_;
  std::map<std::string, std::int32_t> partition_counts_;
  std::atomic<bool> stop_{false};
  std::thread poller_;
};

}  // namespace petstore::kafka
