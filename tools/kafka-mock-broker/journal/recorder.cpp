#include "journal/recorder.h"

#include <array>
#include <stdexcept>

#include "log/log.h"

namespace petstore::tools::journal {
namespace {

constexpr std::size_t kBatch = 10000;
// Records are written to the file as soon as they are read (a crash of the
// broker program then loses nothing written); fdatasync, which only a crash
// of the machine needs, runs at most this often.
constexpr auto kSyncInterval = std::chrono::milliseconds(100);
constexpr int kQueryTimeoutMs = 5000;

RecordView view_of(const rd_kafka_message_t& m, std::vector<HeaderView>& headers) {
  RecordView r;
  r.offset = m.offset;
  r.timestamp_ms = rd_kafka_message_timestamp(&m, nullptr);
  if (m.key != nullptr) {
    r.key = std::string_view(static_cast<const char*>(m.key), m.key_len);
  }
  if (m.payload != nullptr) {
    r.value = std::string_view(static_cast<const char*>(m.payload), m.len);
  }
  headers.clear();
  rd_kafka_headers_t* hdrs = nullptr;
  if (rd_kafka_message_headers(&m, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    const char* name = nullptr;
    const void* value = nullptr;
    std::size_t size = 0;
    for (std::size_t i = 0;
         rd_kafka_header_get_all(hdrs, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i) {
      HeaderView h{name, std::nullopt};
      if (value != nullptr) {
        h.value = std::string_view(static_cast<const char*>(value), size);
      }
      headers.push_back(h);
    }
  }
  r.headers = headers;
  return r;
}

}  // namespace

Recorder::Recorder(Store& store, const std::string& bootstrap, std::map<Key, std::int64_t> next)
    : store_(store), next_(std::move(next)) {
  auto conf = kafka::make_conf({
      {"bootstrap.servers", bootstrap},
      // Partitions are assigned by hand; librdkafka still wants a group name.
      {"group.id", "petstore-journal"},
      {"client.id", "petstore-journal"},
      {"enable.auto.commit", "false"},
      {"enable.auto.offset.store", "false"},
      // The local broker holds an empty fetch for the whole wait, so this is
      // how long a record may sit in the broker before the journal has it.
      {"fetch.wait.max.ms", "10"},
      {"fetch.error.backoff.ms", "10"},
      // A gap must be seen, never skipped: no automatic reset.
      {"auto.offset.reset", "error"},
      {"fetch.max.bytes", "52428800"},
      {"max.partition.fetch.bytes", "8388608"},
  });
  rk_ = kafka::make_handle(RD_KAFKA_CONSUMER, std::move(conf));
  rd_kafka_poll_set_consumer(rk_.get());
  last_sync_ = std::chrono::steady_clock::now();
}

Recorder::~Recorder() {
  stop_ = true;
  if (thread_.joinable()) {
    thread_.join();
  }
  if (rk_) {
    rd_kafka_consumer_close(rk_.get());
  }
}

void Recorder::start() {
  assign_all();
  thread_ = std::thread([this] { run(); });
}

void Recorder::add_topic(const TopicSpec& topic) {
  const std::scoped_lock lock(mutex_);
  for (std::int32_t p = 0; p < topic.partitions; ++p) {
    next_.try_emplace({topic.name, p}, 0);
  }
  reassign_ = true;
}

void Recorder::assign_all() {
  const kafka::PartitionListPtr parts(rd_kafka_topic_partition_list_new(static_cast<int>(next_.size())));
  {
    const std::scoped_lock lock(mutex_);
    for (const auto& [key, offset] : next_) {
      if (!broken_.contains(key)) {
        rd_kafka_topic_partition_list_add(parts.get(), key.first.c_str(), key.second)->offset = offset;
      }
    }
    reassign_ = false;
  }
  if (const auto e = rd_kafka_assign(rk_.get(), parts.get()); e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw std::runtime_error(std::string("journal: assign: ") + rd_kafka_err2str(e));
  }
}

void Recorder::reassign_if_asked() {
  bool reassign = false;
  {
    const std::scoped_lock lock(mutex_);
    reassign = reassign_;
  }
  if (reassign) {
    assign_all();
  }
}

void Recorder::run() {
  while (!stop_) {
    try {
      reassign_if_asked();
      step(std::chrono::milliseconds(100));
    } catch (const std::exception& e) {
      // A full disk or a failed write: keep trying, loudly; the records are
      // still in the broker's memory until it is stopped.
      log::error("journal: {}", e.what());
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
  }
}

std::size_t Recorder::step(std::chrono::milliseconds wait) {
  std::map<Key, std::string> frames;
  std::vector<HeaderView> headers;
  std::size_t n = 0;
  for (std::size_t i = 0; i < kBatch; ++i) {
    const kafka::MessagePtr m(rd_kafka_consumer_poll(rk_.get(), i == 0 ? static_cast<int>(wait.count()) : 0));
    if (!m) {
      break;
    }
    const Key key{m->rkt != nullptr ? rd_kafka_topic_name(m->rkt) : "", m->partition};
    const std::scoped_lock lock(mutex_);
    if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      if (m->err == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE) {
        // The broker no longer has the offset the journal needs next: it
        // dropped records before they were read (librdkafka's mock cluster
        // keeps about 5 MiB per partition).
        mark_broken(key, "records of " + key.first + " [" + std::to_string(key.second) +
                             "] were dropped by the broker before the journal read them");
      } else if (m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        log::warn("journal: {}", rd_kafka_message_errstr(m.get()));
      }
      continue;
    }
    const auto next = next_.find(key);
    if (next == next_.end() || broken_.contains(key) || m->offset < next->second) {
      continue;  // not followed, or delivered again after a reassignment
    }
    if (m->offset > next->second) {
      mark_broken(key, "offset " + std::to_string(m->offset) + " of " + key.first + " [" +
                           std::to_string(key.second) + "] follows " + std::to_string(next->second - 1) +
                           ": the records between are missing");
      continue;
    }
    append_frame(view_of(*m, headers), frames[key]);
    ++next->second;
    ++n;
  }
  for (const auto& [key, bytes] : frames) {
    store_.append(key.first, key.second, bytes);
  }
  recorded_ += static_cast<std::int64_t>(n);
  if (const auto now = std::chrono::steady_clock::now(); n > 0 && now - last_sync_ >= kSyncInterval) {
    store_.sync();
    last_sync_ = now;
  }
  return n;
}

bool Recorder::caught_up(const std::map<Key, std::int64_t>& ends) {
  const std::scoped_lock lock(mutex_);
  for (const auto& [key, end] : ends) {
    if (!broken_.contains(key) && next_[key] < end) {
      return false;
    }
  }
  return true;
}

bool Recorder::drain_and_stop(std::chrono::milliseconds limit) {
  stop_ = true;
  if (thread_.joinable()) {
    thread_.join();
  }
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::map<Key, std::int64_t> ends;
  {
    std::vector<Key> keys;
    {
      const std::scoped_lock lock(mutex_);
      for (const auto& [key, offset] : next_) {
        keys.push_back(key);
      }
    }
    for (const auto& key : keys) {
      std::int64_t low = 0;
      std::int64_t high = 0;
      if (const auto e = rd_kafka_query_watermark_offsets(rk_.get(), key.first.c_str(), key.second, &low,
                                                          &high, kQueryTimeoutMs);
          e != RD_KAFKA_RESP_ERR_NO_ERROR) {
        log::error("journal: cannot read the end of {} [{}]: {}", key.first, key.second, rd_kafka_err2str(e));
        continue;
      }
      ends[key] = high;
    }
  }
  reassign_if_asked();
  bool done = caught_up(ends);
  while (!done && std::chrono::steady_clock::now() < deadline) {
    step(std::chrono::milliseconds(50));
    done = caught_up(ends);
  }
  store_.sync();
  return done;
}

std::string Recorder::problem() const {
  const std::scoped_lock lock(mutex_);
  return problem_;
}

void Recorder::mark_broken(const Key& key, std::string why) {
  // The journal keeps its good prefix of that partition and follows it no
  // further: a record journaled after a gap would be restored at the wrong
  // offset. The broker program's /healthz reports the problem.
  broken_[key] = true;
  reassign_ = true;
  log::critical("journal: {}", why);
  problem_ = std::move(why);
}

}  // namespace petstore::tools::journal
