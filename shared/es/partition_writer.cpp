#include "es/partition_writer.h"

#include <algorithm>

#include "es/errc.h"
#include "kafka/client_metrics.h"
#include "kafka/partition_reader.h"
#include "log/log.h"

namespace petstore::es {

PartitionWriter::PartitionWriter(Settings settings)
    : settings_(std::move(settings)),
      producer_(kafka::ProducerSettings{settings_.brokers, settings_.owner, settings_.linger_ms,
                                        settings_.delivery_timeout_ms,
                                        transactional_id(settings_.topic, settings_.partition),
                                        // librdkafka wants records to time out before their transaction
                                        std::max(10'000, settings_.delivery_timeout_ms)}),
      high_watermark_(settings_.brokers, settings_.owner) {}

PartitionWriter::~PartitionWriter() = default;

std::chrono::milliseconds PartitionWriter::longest_append(int delivery_timeout_ms) {
  const auto timeout = Settings{}.timeout;
  return timeout + std::chrono::milliseconds(delivery_timeout_ms) + kafka::kDeliveryReportLateness + timeout;
}

std::string PartitionWriter::transactional_id(const std::string& topic, std::int32_t partition) {
  return "petstore.writer." + topic + "." + std::to_string(partition);
}

void PartitionWriter::claim(const std::function<void(const kafka::Message&)>& fold) {
  const auto timeout_ms = static_cast<int>(settings_.timeout.count());
  producer_.init_transactions(timeout_ms);
  // From offset 0 itself: a fold must start at the first record, and a
  // partition whose first records the broker no longer holds fails the
  // claim (the reader's auto.offset.reset is "error") instead of folding
  // part of the history.
  kafka::PartitionReader reader(settings_.brokers, settings_.topic, settings_.partition, 0);
  // The last stable offset: no transaction of this id is open any more, and
  // the partition has no other writer.
  const auto end = reader.end(timeout_ms);
  auto give_up = std::chrono::steady_clock::now() + settings_.timeout;
  // An empty partition has nothing to fold; the position is not known
  // (RD_KAFKA_OFFSET_INVALID) before the first record or marker is read.
  while (end > 0 && reader.position() < end) {
    if (std::chrono::steady_clock::now() >= give_up) {
      throw kafka::Unavailable("kafka: " + settings_.topic + "/" + std::to_string(settings_.partition) +
                                   " not read up to offset " + std::to_string(end) +
                                   " in time (no record for " + std::to_string(settings_.timeout.count()) +
                                   " ms)",
                               false);
    }
    // A fold reads the whole history, which grows with the log: it gives
    // up only after a whole timeout without a record.
    if (const auto m = reader.next(std::chrono::milliseconds(100))) {
      fold(*m);
      give_up = std::chrono::steady_clock::now() + settings_.timeout;
    }
  }
  const std::lock_guard lock(mutex_);
  end_bound_ = end;
}

PartitionWriter::Sent PartitionWriter::send(const kafka::Record& record) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return !committing_ || broken_; });
  if (broken_ || producer_.fenced() || (open_ != 0 && doomed_ == open_)) {
    throw Error(Errc::Fenced, "the writer of " + settings_.topic + "/" + std::to_string(settings_.partition) +
                                  " has stopped; the partition is claimed anew");
  }
  if (open_ == 0) {
    producer_.begin_transaction();
    open_ = next_++;
    open_records_ = 0;
  }
  auto report = producer_.send_to(record, settings_.partition);
  // A transaction's marker is written only for one that holds a record: a
  // first record refused by the producer leaves none to count.
  end_bound_ += open_records_ == 0 ? 2 : 1;
  ++open_records_;
  return {std::move(report), open_};
}

void PartitionWriter::confirm(std::uint64_t transaction) {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (committed_ >= transaction) {
      return;
    }
    if (broken_) {
      std::rethrow_exception(broken_);
    }
    if (!committing_ && open_ == transaction) {
      committing_ = true;
      open_ = 0;
      const auto records = open_records_;
      const bool doomed = doomed_ == transaction;
      lock.unlock();
      std::exception_ptr failed;
      try {
        if (doomed) {
          producer_.abort_transaction(static_cast<int>(settings_.timeout.count()));
        } else {
          producer_.commit_transaction(static_cast<int>(settings_.timeout.count()));
        }
      } catch (...) {
        failed = std::current_exception();
      }
      if (doomed) {
        // Aborted, or (if the abort failed) never to be committed: the next
        // claim's init_transactions, or the transaction's timeout, aborts it.
        failed = std::make_exception_ptr(kafka::Unavailable(
            "kafka: a record of the transaction failed its delivery; the transaction is rolled back", false));
      }
      lock.lock();
      committing_ = false;
      if (failed) {
        broken_ = failed;
        if (producer_.fenced()) {
          // What an operator (and the fault campaign) counts: appends of a
          // writer that lost its partition, refused by the broker.
          log::warn(
              "writer {} of {}/{}: fenced by the broker; the {} record(s) of its transaction are refused",
              settings_.owner, settings_.topic, settings_.partition, records);
        }
      } else {
        committed_ = transaction;
        kafka::client_metrics::committed_records(settings_.topic, records);
      }
      changed_.notify_all();
      continue;
    }
    changed_.wait(lock);
  }
}

bool PartitionWriter::doom(std::uint64_t transaction) {
  const std::lock_guard lock(mutex_);
  if (open_ != transaction || committing_) {
    return false;
  }
  doomed_ = transaction;
  return true;
}

void PartitionWriter::confirm_current() {
  std::uint64_t pending = 0;
  {
    const std::lock_guard lock(mutex_);
    // The last transaction, if it is not known to be committed: the fold a
    // decision rested on holds its events. A writer whose commit failed is
    // broken, and confirm() says how (the outcome may be unknown).
    pending = open_ != 0 ? open_ : (committed_ + 1 < next_ ? next_ - 1 : 0);
  }
  if (pending != 0) {
    confirm(pending);
  }
  const auto end =
      high_watermark_.of(settings_.topic, settings_.partition, static_cast<int>(settings_.timeout.count()));
  const std::lock_guard lock(mutex_);
  if (broken_) {
    std::rethrow_exception(broken_);  // what broke it first says most (an ambiguous commit, say)
  }
  if (end > end_bound_) {
    broken_ = std::make_exception_ptr(
        Error(Errc::Fenced, settings_.topic + "/" + std::to_string(settings_.partition) +
                                " holds records this writer did not write: it has another owner"));
    std::rethrow_exception(broken_);
  }
}

bool PartitionWriter::broken() const {
  const std::lock_guard lock(mutex_);
  return broken_ != nullptr || producer_.fenced();
}

}  // namespace petstore::es
