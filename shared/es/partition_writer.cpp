#include "es/partition_writer.h"

#include <algorithm>
#include <functional>

#include "es/errc.h"

namespace petstore::es {

namespace {

Error fenced(const PartitionWriter::Settings& s, std::int64_t epoch) {
  return {Errc::Fenced, "partition " + s.topic + "/" + std::to_string(s.partition) +
                            " has a newer owner than epoch " + std::to_string(epoch)};
}

}  // namespace

PartitionWriter::PartitionWriter(kafka::Producer& producer, Settings settings)
    : producer_(producer),
      settings_(std::move(settings)),
      // From offset 0 itself, not the logical beginning: a logical offset is
      // looked up first, and a new client that does not know the leader yet
      // puts that lookup off by 500 ms (librdkafka 2.0.2
      // src/rdkafka_partition.c, rd_kafka_toppar_offset_request), which
      // every claim paid. And a fold must start at the first record: a
      // partition whose first records the broker no longer holds (records
      // deleted by hand, or a retention an operator set) fails the claim
      // (the reader's auto.offset.reset is "error") instead of folding
      // part of the history.
      reader_(settings_.brokers, settings_.topic, settings_.partition, 0, settings_.fetch_wait_max_ms) {}

EpochRule::Verdict PartitionWriter::read_through(std::int64_t offset,
                                                 const std::function<void(const kafka::Message&)>* fold,
                                                 Deadline deadline) {
  auto verdict = EpochRule::Verdict::Fenced;
  if (resting_) {
    reader_.resume_at(read_);
    resting_ = false;
  }
  auto give_up = std::chrono::steady_clock::now() + settings_.read_timeout;
  while (read_ <= offset) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(give_up - std::chrono::steady_clock::now());
    if (left <= std::chrono::milliseconds::zero()) {
      throw kafka::Unavailable("kafka: " + settings_.topic + "/" + std::to_string(settings_.partition) +
                                   " not read up to offset " + std::to_string(offset) + " in time (" +
                                   (deadline == Deadline::Progress ? "no record for " : "") +
                                   std::to_string(settings_.read_timeout.count()) +
                                   (deadline == Deadline::Progress ? " ms" : " ms in all") +
                                   "; next offset " + std::to_string(read_) + ")",
                               true);
    }
    const auto m = reader_.next(std::min(left, std::chrono::milliseconds(100)));
    if (!m) {
      continue;
    }
    read_ = m->offset + 1;
    remember(*m);
    verdict = rule_.next(fence_headers(*m));
    if (verdict == EpochRule::Verdict::Claimed && epoch_ != 0 && rule_.current() != epoch_ && !fenced_) {
      fenced_from_ = m->offset;  // someone claimed after this writer did
      fenced_ = true;
    }
    if (verdict == EpochRule::Verdict::Counts && fold != nullptr) {
      (*fold)(*m);
    }
    if (deadline == Deadline::Progress) {
      give_up = std::chrono::steady_clock::now() + settings_.read_timeout;
    }
  }
  last_read_ = std::chrono::steady_clock::now();
  return verdict;
}

std::int64_t PartitionWriter::claim(const std::function<void(const kafka::Message&)>& fold) {
  const std::lock_guard lock(read_mutex_);
  // Every claim so far, so the new one is above them all.
  const auto end = reader_.end(static_cast<int>(settings_.read_timeout.count()));
  if (end > read_) {
    read_through(end - 1, &fold, Deadline::Progress);
  }
  const auto epoch = rule_.current() + 1;
  kafka::Record claim{settings_.topic,
                      "",
                      R"({"epoch":)" + std::to_string(epoch) + R"(,"owner":")" + settings_.owner + "\"}",
                      {{std::string(kClaimHeader), std::to_string(epoch)}}};
  const auto at = producer_.append_to(claim, settings_.partition);
  // Records that landed between the end read above and the claim are
  // folded too; a claim among them beats this one.
  epoch_ = 0;
  fenced_ = false;
  fenced_from_ = std::numeric_limits<std::int64_t>::max();
  // The claim at the reported offset must be this one: another claimer's
  // of the same epoch there would make two owners of it.
  if (read_through(at.offset, &fold) != EpochRule::Verdict::Claimed || rule_.current() != epoch ||
      !read_back(at.offset, digest_of(claim.value))) {
    fenced_ = true;
    throw fenced(settings_, epoch);
  }
  epoch_ = epoch;
  return epoch;
}

std::uint64_t PartitionWriter::digest_of(std::string_view value) {
  return std::hash<std::string_view>{}(value);
}

void PartitionWriter::remember(const kafka::Message& m) {
  recent_.emplace_back(m.offset, digest_of(m.value));
  if (recent_.size() > kRecent) {
    recent_.pop_front();
  }
}

bool PartitionWriter::read_back(std::int64_t offset, std::uint64_t digest) const {
  // Offsets rise but may skip (a real cluster's transaction markers).
  const auto it = std::lower_bound(recent_.begin(), recent_.end(), offset,
                                   [](const auto& r, std::int64_t o) { return r.first < o; });
  return it != recent_.end() && it->first == offset && it->second == digest;
}

PartitionWriter::Sent PartitionWriter::send(kafka::Record record) {
  if (epoch_ == 0 || fenced_) {
    throw fenced(settings_, epoch_);
  }
  record.headers.push_back({std::string(kEpochHeader), std::to_string(epoch_)});
  const auto digest = digest_of(record.value);
  return {producer_.send_to(record, settings_.partition), digest};
}

void PartitionWriter::confirm(std::int64_t offset, std::uint64_t digest,
                              const std::function<void(const kafka::Message&)>* fold) {
  const std::lock_guard lock(read_mutex_);
  if (read_ <= offset) {
    read_through(offset, fold);
  }
  if (!read_back(offset, digest)) {
    throw kafka::Unavailable("kafka: " + settings_.topic + "/" + std::to_string(settings_.partition) +
                                 " does not hold the record sent at offset " + std::to_string(offset) +
                                 ", where its delivery report put it",
                             true);
  }
  // Stamped with this writer's epoch, the record counts unless a later
  // claim came before it (EpochRule).
  if (offset >= fenced_from_) {
    throw fenced(settings_, epoch_);
  }
}

void PartitionWriter::confirm_current() {
  // Asked before the reader's lock is taken: the answer is a round trip,
  // and the confirms of what others sent need not wait for it.
  const auto end = producer_.end_offset(settings_.topic, settings_.partition,
                                        static_cast<int>(settings_.read_timeout.count()));
  const std::lock_guard lock(read_mutex_);
  if (read_ < end) {
    read_through(end - 1, nullptr);
  }
  if (fenced_) {
    throw fenced(settings_, epoch_);
  }
}

void PartitionWriter::rest_if_idle(std::chrono::milliseconds idle) {
  const std::unique_lock lock(read_mutex_, std::try_to_lock);
  if (!lock.owns_lock() || resting_ || std::chrono::steady_clock::now() - last_read_ < idle) {
    return;
  }
  // Set first: if the pause fails half-way, the next read-back still
  // resumes (harmless on a reader that is fetching).
  resting_ = true;
  reader_.pause();
}

kafka::Position PartitionWriter::append(kafka::Record record,
                                        const std::function<void(const kafka::Message&)>* fold) {
  auto sent = send(std::move(record));
  const auto at = sent.report.wait();
  confirm(at.offset, sent.digest, fold);
  return at;
}

}  // namespace petstore::es
