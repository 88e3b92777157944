#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "es/event_log.h"
#include "es/owner_hints.h"
#include "es/ownership.h"
#include "es/partition_writer.h"
#include "kafka/producer.h"

namespace petstore::log {
class Every;
}

namespace petstore::es {

// The record header naming the creating request an event answers: a digest
// of its Idempotency-Key, so the single writer knows from the log itself
// whether the request already created its aggregate
// (es::AggregateWriter::create; docs/events.md).
inline constexpr std::string_view kRequestHeader = "petstore_request";

// One events topic as a partition owner writes it: es::Ownership followed
// on a thread of its own, one lock per partition, and appends acknowledged
// once their transaction is committed (es::PartitionWriter). The part of the single writer that knows nothing
// of any aggregate; es::AggregateWriter adds the aggregate's fold and
// decides what may be sent before what was sent is acknowledged.
class OwnerLog {
 public:
  struct Settings {
    std::string brokers;
    std::string group;  // one per service and topic: its replicas share the partitions out
    std::string topic;
    std::string owner;   // this replica
    std::string source;  // ce_source of the events appended
    std::chrono::milliseconds poll{100};
    // This replica's base URL, recorded in `hints` for every partition it
    // claims (and again every few seconds, so a wiped Redis learns it back).
    std::string url;
    int linger_ms = 2;  // of each partition's producer (PartitionWriter::Settings)
    int delivery_timeout_ms = 5000;
    // How long a command waits for a rebalance in progress to settle
    // before it is told that this replica does not own its partition.
    std::chrono::milliseconds settle_wait{3000};
  };

  // `state` is told of every partition claimed (its fold) and let go.
  // With `hints`, owners say where they answer, and NotOwner carries the
  // owner's URL (es::Error::owner_hint).
  OwnerLog(kafka::Producer& producer, Settings settings, Ownership::State& state,
           OwnerHints* hints = nullptr);
  ~OwnerLog();
  OwnerLog(const OwnerLog&) = delete;
  OwnerLog& operator=(const OwnerLog&) = delete;

  // Learns the topic's partitions from the broker (once); returns how many.
  // Nothing connects before: constructing a service opens no connection.
  std::int32_t open();
  // Opens, then joins the group and follows it until stop() or destruction.
  void start();
  // Stops following (joins the thread): the owner's state, which the
  // thread folds into, may go after this.
  void stop();
  // Stops following and leaves the group (es::Ownership::leave): the
  // partitions go to the other replicas now. A command that still comes
  // here (on a connection the stopping server has not ended yet) waits for
  // no new owner: hold() answers at once, with the new owner's hint if it
  // has recorded one. For a replica that stops.
  void resign();

  // An event on its way: sent in a transaction not committed yet.
  struct Sending {
    events::Envelope envelope;
    PartitionWriter::Sent sent;  // its report, and its transaction
  };

  // Holds partition `p`'s lock, with p's writer, until it is unlocked or
  // goes. The writer stays with it after unlock(): what was sent through it
  // is confirmed through it, whoever owns the partition by then.
  class Held {
   public:
    [[nodiscard]] std::int32_t partition() const { return partition_; }
    [[nodiscard]] const std::string& topic() const { return log_->topic(); }
    // Stamps `event` with `request` (kRequestHeader) unless it is empty,
    // and sends it in the partition's open transaction without waiting.
    // Throws es::Error(Fenced) when the writer has stopped, and
    // kafka::Unavailable when the producer refuses it.
    Sending send(const NewEvent& event, const std::string& request);
    // Commits what `send` sent (PartitionWriter::confirm). Call without
    // the lock. Throws as PartitionWriter::confirm does.
    void confirm(std::uint64_t transaction) { writer_->confirm(transaction); }
    // PartitionWriter::doom: after a record of `transaction` failed.
    bool doom(std::uint64_t transaction) { return writer_->doom(transaction); }
    // Confirms a decision that sent nothing against the partition as it is
    // now (PartitionWriter::confirm_current). Call without the lock.
    void confirm_current() { writer_->confirm_current(); }
    // Gives up the writer after an append that was not acknowledged: the
    // partition is claimed anew (and folded again) before its next command;
    // the claim fences this writer and settles its open transaction.
    void release_partition();

    // The partition's lock: waits on `cv` with it let go, for at most `timeout`.
    void wait(std::condition_variable& cv, std::chrono::milliseconds timeout) { cv.wait_for(lock_, timeout); }
    void unlock() { lock_.unlock(); }
    void relock() { lock_.lock(); }
    // Another handle on the same partition and writer, without the lock:
    // each of a batch's commands, decided under one hold, confirms through
    // one of its own (AggregateWriter::begin_each).
    [[nodiscard]] Held share() const {
      return {log_, std::unique_lock(*lock_.mutex(), std::defer_lock), writer_, partition_};
    }

   private:
    friend class OwnerLog;
    Held(OwnerLog* log, std::unique_lock<std::mutex> lock, std::shared_ptr<PartitionWriter> writer,
         std::int32_t partition)
        : log_(log), lock_(std::move(lock)), writer_(std::move(writer)), partition_(partition) {}
    OwnerLog* log_;
    std::unique_lock<std::mutex> lock_;
    std::shared_ptr<PartitionWriter> writer_;
    std::int32_t partition_;
  };

  // Partition `p`, held; throws es::Error(NotOwner) unless this replica
  // owns it (never before start()). Commands on one partition decide one
  // at a time; what they sent travels on after they let go (unlock()).
  // While ownership is about to be known (a rebalance), it waits until
  // `until` at most; by default Settings::settle_wait from now. After
  // resign() it does not wait.
  Held hold(std::int32_t p) { return hold(p, settle_deadline()); }
  Held hold(std::int32_t p, std::chrono::steady_clock::time_point until);
  // Settings::settle_wait from now: one deadline for the holds of a batch
  // (AggregateWriter::begin_each), which would otherwise wait in turn.
  [[nodiscard]] std::chrono::steady_clock::time_point settle_deadline() const {
    return std::chrono::steady_clock::now() + settings_.settle_wait;
  }

  // The lock a fold or a forget of partition `p` takes (es::Ownership::State
  // implementations), so neither runs beside a command on `p`.
  std::unique_lock<std::mutex> lock(std::int32_t p) {
    return std::unique_lock(mutexes_.at(static_cast<size_t>(p)));
  }

  [[nodiscard]] std::int32_t partition_of(const std::string& key) const;
  [[nodiscard]] std::int32_t partitions() const { return static_cast<std::int32_t>(mutexes_.size()); }
  [[nodiscard]] std::vector<std::int32_t> owned() const { return ownership_.owned(); }
  // Whether this replica has its share of the partitions (es::Ownership::settled).
  [[nodiscard]] bool settled() const { return ownership_.settled(); }
  [[nodiscard]] const std::string& topic() const { return settings_.topic; }
  [[nodiscard]] const std::string& source() const { return settings_.source; }

 private:
  void follow();

  // Records the hints of the partitions owned now: the new ones at once,
  // all of them every few seconds.
  void record_hints();

  kafka::Producer& producer_;
  Settings settings_;
  OwnerHints* hints_;
  Ownership ownership_;
  std::vector<std::int32_t> hinted_;
  std::chrono::steady_clock::time_point hints_renewed_;
  std::vector<std::mutex> mutexes_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> resigned_{false};
  // Paces the line logged for a command refused after waiting the whole
  // settle wait: while a rebalance runs, every such command would write one.
  std::unique_ptr<log::Every> refusals_logged_;
  std::thread thread_;
};

}  // namespace petstore::es
