#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "es/epoch.h"
#include "kafka/partition_reader.h"
#include "kafka/producer.h"

namespace petstore::es {

// The one writer of a partition, fenced by the log itself
// (docs/consistency.md; the rule is es::EpochRule). claim() makes it the owner; append() answers only once
// the record has been read back with no later claim before it, so a writer
// that was replaced while it was paused never acknowledges what it appends
// afterwards, and every reader that applies EpochRule ignores that record
// (the projections, the reactors, the audit, tools/event-tail).
// The write path of every aggregate topic, under es::OwnerLog.
class PartitionWriter {
 public:
  struct Settings {
    std::string brokers;
    std::string topic;
    std::int32_t partition = 0;
    std::string owner;  // who claims, written into the claim (for people)
    // How long a read-back may take in all, and a claim's fold without a
    // record, before the writer gives up (Unavailable; Deadline below).
    std::chrono::milliseconds read_timeout{5000};
    // The reader's fetch.wait.max.ms: Kafka answers a fetch once a record
    // arrives, so this only bounds an idle reader's empty fetches
    // (config::ServiceConfig::kafka_read_back_wait_ms).
    int fetch_wait_max_ms = 100;
  };

  PartitionWriter(kafka::Producer& producer, Settings settings);

  // Takes the partition: appends a claim one epoch above every claim in it,
  // and reads the partition up to that claim, handing `fold` each record
  // that counts before it, in order (the owner's state). Returns the epoch.
  // Throws es::Error(Fenced) when another claim got in first (claim again
  // to take over from it) and kafka::Unavailable when the broker does not
  // answer in time.
  std::int64_t claim(const std::function<void(const kafka::Message&)>& fold);

  // Appends `record` in this writer's epoch, to its partition. Returns its
  // position once read back with no later claim before it. Throws
  // es::Error(Fenced) otherwise: the record may be in the log, where
  // EpochRule makes it not count, and every later append is refused the
  // same way.
  // Throws kafka::Unavailable when the broker does not answer.
  // `fold`, when given, gets every record read back that counts, this one
  // included, so the owner's state is what every reader counts (a record
  // stamped with this epoch by anyone else too). send, then confirm.
  kafka::Position append(kafka::Record record,
                         const std::function<void(const kafka::Message&)>* fold = nullptr);

  // The two halves of append, for an owner that sends the next record
  // before the last is read back (es::AggregateWriter: one round trip for
  // all the records sent meanwhile). send stamps `record` with this
  // writer's epoch and hands it to the producer: es::Error(Fenced) once a
  // later claim was seen, kafka::Unavailable if the producer refuses it.
  // confirm reads the partition up to `offset` (unless another caller
  // already has) and throws es::Error(Fenced) when a later claim comes
  // before it: the record there does not count. Both may be called from
  // any thread, beside each other.
  //
  // confirm also checks that the record read back at `offset` is the one
  // sent (by `digest`, of its value), and throws kafka::Unavailable,
  // possibly persisted, when it is not: a delivery report whose offset is
  // wrong must not pass for a record read back. librdkafka reports some
  // records delivered without a true offset (docs/reliability.md, "A
  // version gap": -1001 after an implicit ack; -1, 0, 1, ... after a
  // DUPLICATE_SEQUENCE_NUMBER, v2.0.2 src/rdkafka_request.c).
  struct Sent {
    kafka::Producer::Sent report;
    std::uint64_t digest;  // of the record's value (digest_of)
  };
  Sent send(kafka::Record record);
  void confirm(std::int64_t offset, std::uint64_t digest,
               const std::function<void(const kafka::Message&)>* fold = nullptr);
  static std::uint64_t digest_of(std::string_view value);
  // Confirms a decision that appended nothing (a refusal, or a command
  // with nothing to change): reads the partition up to its end as the
  // broker reports it now, and throws es::Error(Fenced) if a later claim
  // is there. A decision on an aggregate's absence rests on no record at
  // all, so only this shows that no other owner appended meanwhile (one
  // that took over while this replica was paused). kafka::Unavailable
  // when the broker does not answer.
  void confirm_current();

  // Stops the reader fetching if nothing was read back for `idle`: an idle
  // reader costs its broker a fetch every fetch.wait.max.ms. The next
  // read-back starts it again, where it
  // stopped, and its first fetch finds the record it waits for already
  // there. Skips a writer busy reading. Called by the thread that polls
  // the group (es::Ownership::poll). Throws kafka::Unavailable.
  void rest_if_idle(std::chrono::milliseconds idle);

 private:
  // How long a read may take. A read-back (of an append, of a decision
  // that appended nothing) gets read_timeout in all: the write path's
  // latency bound rests on it (Platform::longest_append). A claim's fold
  // reads the partition's whole history, which grows with the log, so it
  // goes on while records keep coming and gives up only after read_timeout
  // without one. With a total bound, a partition that took longer to fold
  // than read_timeout could never be claimed again: each attempt started
  // over from the first record (docs/reliability.md).
  enum class Deadline { Total, Progress };

  // Reads up to and including `offset`, applying the rule; `fold`, when
  // set, gets every record that counts. Returns the verdict of the record
  // at `offset`.
  EpochRule::Verdict read_through(std::int64_t offset, const std::function<void(const kafka::Message&)>* fold,
                                  Deadline deadline = Deadline::Total);

  kafka::Producer& producer_;
  Settings settings_;
  // The offset and value digest of the last kRecent records read, for
  // confirm's check. A confirm comes a fetch or so after its record is
  // read; one whose record has left the window is refused (Unavailable).
  static constexpr std::size_t kRecent = 4096;
  void remember(const kafka::Message& m);
  [[nodiscard]] bool read_back(std::int64_t offset, std::uint64_t digest) const;

  std::mutex read_mutex_;  // guards the reader, read_, rule_, recent_ and fenced_from_
  kafka::PartitionReader reader_;
  EpochRule rule_;
  std::deque<std::pair<std::int64_t, std::uint64_t>> recent_;
  std::int64_t read_ = 0;  // the next offset the reader hands over
  bool resting_ = false;   // the reader is paused (rest_if_idle)
  std::chrono::steady_clock::time_point last_read_ = std::chrono::steady_clock::now();
  std::int64_t epoch_ = 0;  // this writer's, 0 before a claim (set before the writer is shared)
  // Where a later claim than this writer's was read: nothing of this
  // writer's from there on counts.
  std::int64_t fenced_from_ = std::numeric_limits<std::int64_t>::max();
  std::atomic<bool> fenced_{false};
};

}  // namespace petstore::es
