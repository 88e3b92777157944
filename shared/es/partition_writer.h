#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "kafka/consumer.h"
#include "kafka/handles.h"
#include "kafka/high_watermark.h"
#include "kafka/producer.h"

namespace petstore::es {

// The one writer of a partition, fenced by Kafka (docs/consistency.md,
// "One writer per partition"). It writes through a transactional producer
// whose transactional.id belongs to the partition, not to the replica:
// claim() initialises that id, so the broker fences whichever producer held
// it before (a replica that was paused, or that lost the partition and has
// not noticed yet) and aborts the transaction that one left open. From
// then on an append of the old holder is refused by the broker, and never
// visible to a read_committed reader.
//
// Group commit: send() adds a record to the open transaction (opening one
// when none is), confirm() commits it. Records sent while a commit is on
// its way wait for it, then go in the next transaction together, so one
// commit serves every command that arrived meanwhile.
//
// The write path of every aggregate topic, under es::OwnerLog.
class PartitionWriter {
 public:
  struct Settings {
    std::string brokers;
    std::string topic;
    std::int32_t partition = 0;
    std::string owner;  // this replica: the producer's client.id
    // How long a claim's fold may go without a record, and a commit or a
    // check of the partition's end may take, before the writer gives up
    // (kafka::Unavailable).
    std::chrono::milliseconds timeout{5000};
    int linger_ms = 2;
    int delivery_timeout_ms = 5000;
  };

  explicit PartitionWriter(Settings settings);

  // The longest a command may take from deciding to its append being
  // committed or given up: a commit already on its way (its records'
  // successors wait for it), the record's delivery report (the delivery
  // timeout and a late report), then its own transaction's commit. What
  // rests on an append ending in time (a category claim's lease, a
  // forward's wait) takes it from here.
  // With the default Settings::timeout, as every writer has.
  [[nodiscard]] static std::chrono::milliseconds longest_append(int delivery_timeout_ms);
  ~PartitionWriter();
  PartitionWriter(const PartitionWriter&) = delete;
  PartitionWriter& operator=(const PartitionWriter&) = delete;

  // The partition's transactional.id: one per topic and partition, the same
  // on every replica, so that whoever claims the partition fences the rest.
  static std::string transactional_id(const std::string& topic, std::int32_t partition);

  // Takes the partition: initialises its transactional.id (fencing the
  // last holder), then reads it read_committed from its first record up to
  // its last stable offset, handing `fold` each record in order (the
  // owner's state). Once per writer: a new claim takes a new writer.
  // Throws kafka::Unavailable when the broker does not answer in time.
  void claim(const std::function<void(const kafka::Message&)>& fold);

  // A record handed to the producer inside transaction `transaction`.
  struct Sent {
    kafka::Producer::Sent report;
    std::uint64_t transaction = 0;
  };
  // Adds `record` to the open transaction. Throws es::Error(Fenced) once
  // the writer is broken (fenced, or a commit failed: it is claimed anew),
  // kafka::Unavailable (nothing sent) when the producer refuses it.
  Sent send(const kafka::Record& record);
  // Returns once `transaction` is committed: commits it, or waits for the
  // commit another caller started. Throws kafka::Unavailable as
  // Producer::commit_transaction does (possibly persisted or not); the
  // writer is then broken.
  void confirm(std::uint64_t transaction);
  // After a record of `transaction` failed its delivery: makes sure the
  // transaction is never committed, so that none of its records is ever
  // visible to a read_committed reader (confirm() aborts it instead, and
  // the writer is then broken). A failed delivery report alone proves
  // nothing: the broker may hold the record, and a commit would show it.
  // False when that can no longer be promised: its commit has begun.
  bool doom(std::uint64_t transaction);
  // Confirms a decision that appended nothing: what it rested on is
  // committed (the open transaction, if any), and nobody else has appended
  // to the partition since the claim. A replica that lost its partition
  // without knowing yet decides on a fold that lacks what the new owner
  // appended; Kafka fences its appends, and this check its refusals.
  // Throws es::Error(Fenced) when the partition grew beyond what this
  // writer wrote, kafka::Unavailable when the broker does not answer.
  void confirm_current();

  // Whether the writer can take no more records (fenced, or a commit failed).
  [[nodiscard]] bool broken() const;

 private:
  Settings settings_;
  kafka::Producer producer_;
  // Another writer's records count from the moment they are written,
  // before the markers of their commit move the last stable offset.
  kafka::HighWatermark high_watermark_;

  mutable std::mutex mutex_;  // guards everything below
  std::condition_variable changed_;
  std::uint64_t open_ = 0;        // the open transaction, 0 when none
  std::size_t open_records_ = 0;  // records sent in it
  std::uint64_t next_ = 1;        // the number the next transaction gets
  std::uint64_t committed_ = 0;   // every transaction up to this one is committed
  std::uint64_t doomed_ = 0;      // the open transaction, when it is to be aborted
  bool committing_ = false;
  std::exception_ptr broken_;
  // The partition's end as this writer alone can have moved it: the last
  // stable offset at the claim, plus one offset per record sent and one
  // per transaction (its commit or abort marker).
  std::int64_t end_bound_ = 0;
};

}  // namespace petstore::es
