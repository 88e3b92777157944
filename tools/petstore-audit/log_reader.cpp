#include "log_reader.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <map>
#include <stdexcept>

#include "progress.h"

namespace petstore::audit {

namespace {
constexpr int kMetadataTimeoutMs = 10000;
constexpr size_t kBatch = 4096;
}  // namespace

LogReader::LogReader(const std::string& brokers, const std::vector<std::string>& topics,
                     const ReadBounds& bounds, int consumers) {
  for (int i = 0; i < std::max(consumers, 1); ++i) {
    auto conf = kafka::make_conf({
        {"bootstrap.servers", brokers},
        // No group is joined (partitions are assigned by hand) and nothing is
        // committed; librdkafka still wants a name for the consumer.
        {"group.id", "petstore-audit"},
        {"enable.auto.commit", "false"},
        {"enable.auto.offset.store", "false"},
        // A partition whose last offsets hold no data record (a transaction
        // marker on a real cluster) ends with an EOF event instead.
        {"enable.partition.eof", "true"},
        // Large fetches: the audit reads a whole log as fast as it can.
        {"fetch.max.bytes", "104857600"},
        {"max.partition.fetch.bytes", "16777216"},
        // Each consumer prefetches up to librdkafka's default 64 MB. An
        // empty fetch waits only once every partition still assigned is
        // at its end.
        {"fetch.wait.max.ms", "50"},
    });
    consumers_.push_back(kafka::make_handle(RD_KAFKA_CONSUMER, std::move(conf)));
    rd_kafka_poll_set_consumer(consumers_.back().get());
  }
  rd_kafka_t* rk = consumers_.front().get();

  for (const auto& topic : topics) {
    const int n = kafka::partition_count(rk, topic, kMetadataTimeoutMs);
    partition_counts_.emplace_back(topic, n);
    for (int p = 0; p < n; ++p) {
      kafka::Watermarks w;
      try {
        w = kafka::query_watermarks(rk, topic, p, kMetadataTimeoutMs);
      } catch (const kafka::Unavailable& e) {
        throw std::runtime_error("cannot read the offsets of " + topic + "/" + std::to_string(p) + ": " +
                                 e.what());
      }
      Range r{topic, p, w.low, w.high};
      if (bounds.until_offset) {
        r.end = std::min(r.end, *bounds.until_offset);
      }
      ranges_.push_back(r);
    }
  }
  until_time_ms_ = bounds.until_time_ms;
  for (const auto& r : ranges_) {
    expected_ += std::max<std::int64_t>(0, r.end - r.begin);
  }
}

LogReader::~LogReader() {
  for (auto& rk : consumers_) {
    rd_kafka_consumer_close(rk.get());
  }
}

int LogReader::partitions(const std::string& topic) const {
  for (const auto& [name, n] : partition_counts_) {
    if (name == topic) {
      return n;
    }
  }
  return 0;
}

namespace {

// The end of each partition still being read. A record's lookup compares its
// topic's name with each topic's (a handful) and indexes by partition: no
// string is built per record.
class OpenEnds {
 public:
  void add(const std::string& topic, std::int32_t partition, std::int64_t end) {
    auto it = std::ranges::find_if(topics_, [&](const auto& t) { return t.first == topic; });
    if (it == topics_.end()) {
      topics_.emplace_back(topic, std::vector<std::int64_t>());
      it = std::prev(topics_.end());
    }
    auto& ends = it->second;
    if (ends.size() <= static_cast<size_t>(partition)) {
      ends.resize(static_cast<size_t>(partition) + 1, kClosed);
    }
    if (ends[static_cast<size_t>(partition)] == kClosed) {
      ++open_;
    }
    ends[static_cast<size_t>(partition)] = end;
  }

  // The partition's end, or nullptr when it is not (or no longer) read.
  std::int64_t* find(std::string_view topic, std::int32_t partition) {
    for (auto& [name, ends] : topics_) {
      if (name == topic) {
        if (partition < 0 || static_cast<size_t>(partition) >= ends.size() ||
            ends[static_cast<size_t>(partition)] == kClosed) {
          return nullptr;
        }
        return &ends[static_cast<size_t>(partition)];
      }
    }
    return nullptr;
  }

  void close(std::int64_t* end) {
    *end = kClosed;
    --open_;
  }
  [[nodiscard]] bool empty() const { return open_ == 0; }

 private:
  static constexpr std::int64_t kClosed = -1;
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> topics_;
  size_t open_ = 0;
};

// A pipe that each consumer's queue writes a byte to when records arrive
// while the reader is not polling it (rd_kafka_queue_io_event_enable: one
// byte per idle period), so the reader sleeps until any of them has some.
class Wakeups {
 public:
  Wakeups() {
    if (::pipe2(fds_.data(), O_NONBLOCK | O_CLOEXEC) != 0) {
      throw std::runtime_error("cannot create a pipe for the consumers' wake-ups");
    }
  }
  ~Wakeups() {
    ::close(fds_[0]);
    ::close(fds_[1]);
  }
  Wakeups(const Wakeups&) = delete;
  Wakeups& operator=(const Wakeups&) = delete;

  void watch(rd_kafka_queue_t* queue) const { rd_kafka_queue_io_event_enable(queue, fds_[1], "1", 1); }

  // Waits up to `timeout` for a wake-up, then empties the pipe.
  void wait(std::chrono::milliseconds timeout) const {
    pollfd p{fds_[0], POLLIN, 0};
    ::poll(&p, 1, static_cast<int>(timeout.count()));
    std::array<char, 256> sink{};
    while (::read(fds_[0], sink.data(), sink.size()) > 0) {
    }
  }

 private:
  std::array<int, 2> fds_{-1, -1};
};

}  // namespace

void LogReader::read(const std::function<void(const kafka::Message&, std::int64_t)>& on_record,
                     Progress* progress, std::chrono::milliseconds stall) {
  OpenEnds ends;
  // Partitions are dealt to the consumers in turn, so each reads a share of
  // every topic.
  std::vector<kafka::PartitionListPtr> lists;
  lists.reserve(consumers_.size());
  for (size_t i = 0; i < consumers_.size(); ++i) {
    lists.emplace_back(rd_kafka_topic_partition_list_new(static_cast<int>(ranges_.size())));
  }
  size_t next = 0;
  for (const auto& r : ranges_) {
    if (r.begin < r.end) {
      rd_kafka_topic_partition_list_add(lists[next].get(), r.topic.c_str(), r.partition)->offset = r.begin;
      next = (next + 1) % lists.size();
      ends.add(r.topic, r.partition, r.end);
    }
  }
  if (ends.empty()) {
    return;
  }
  const Wakeups wakeups;
  std::vector<kafka::QueuePtr> queues;
  for (size_t i = 0; i < consumers_.size(); ++i) {
    queues.emplace_back(rd_kafka_queue_get_consumer(consumers_[i].get()));
    wakeups.watch(queues.back().get());
    if (const auto e = rd_kafka_assign(consumers_[i].get(), lists[i].get());
        e != RD_KAFKA_RESP_ERR_NO_ERROR) {
      throw std::runtime_error(std::string("cannot assign the partitions: ") + rd_kafka_err2str(e));
    }
  }
  std::vector<rd_kafka_message_t*> batch(kBatch);
  kafka::Message scratch;  // each record is copied into it in turn
  auto last_progress = std::chrono::steady_clock::now();
  std::string last_error;
  const auto deliver = [&](rd_kafka_message_t* raw) {
    const kafka::MessagePtr m(raw);
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      // The partition ends at m->offset as far as this fetch knows. Only
      // an end at or past the bound finishes it: an EOF may come from a
      // fetch that merely returned nothing yet.
      auto* end = ends.find(rd_kafka_topic_name(m->rkt), m->partition);
      if (end != nullptr && m->offset >= *end) {
        ends.close(end);
      }
      return;
    }
    if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      last_error = rd_kafka_message_errstr(m.get());
      return;
    }
    auto* end = ends.find(rd_kafka_topic_name(m->rkt), m->partition);
    if (end == nullptr || m->offset >= *end) {
      return;  // past the bound, or a partition already done
    }
    last_progress = std::chrono::steady_clock::now();
    rd_kafka_timestamp_type_t type{};
    const auto timestamp = rd_kafka_message_timestamp(m.get(), &type);
    // Every record is looked at: timestamps (the producers' clocks) need
    // not grow along a partition, so a later record may still be in bounds.
    if (!until_time_ms_ || timestamp <= *until_time_ms_) {
      kafka::copy_into(*m, scratch);
      on_record(scratch, timestamp);
    }
    if (progress != nullptr) {
      progress->advance();
    }
    if (m->offset + 1 >= *end) {
      ends.close(end);
    }
  };
  while (!ends.empty()) {
    bool any = false;
    for (const auto& queue : queues) {
      const auto n = rd_kafka_consume_batch_queue(queue.get(), 0, batch.data(), batch.size());
      for (ssize_t i = 0; i < n; ++i) {
        deliver(batch[static_cast<size_t>(i)]);
      }
      any = any || n > 0;
    }
    if (!any) {
      if (std::chrono::steady_clock::now() - last_progress > stall) {
        throw std::runtime_error("the broker stopped delivering records" +
                                 (last_error.empty() ? std::string() : " (" + last_error + ")"));
      }
      wakeups.wait(std::chrono::milliseconds(100));
    }
  }
  for (auto& rk : consumers_) {
    rd_kafka_assign(rk.get(), nullptr);
  }
}

}  // namespace petstore::audit
