#include "journal/restore.h"

#include <array>
#include <atomic>
#include <chrono>
#include <stdexcept>

#include "kafka/handles.h"
#include "log/log.h"

namespace petstore::tools::journal {
namespace {

constexpr int kQueryTimeoutMs = 10000;
constexpr int kFlushTimeoutMs = 300000;
constexpr std::int64_t kProgressEvery = 200000;

struct Failures {
  std::atomic<std::int64_t> count{0};
  std::string first;  // written by librdkafka's one callback thread (rd_kafka_poll/flush here)
};

void on_delivery(rd_kafka_t* /*rk*/, const rd_kafka_message_t* m, void* opaque) {
  if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    auto* failures = static_cast<Failures*>(opaque);
    if (failures->count++ == 0) {
      failures->first = rd_kafka_err2str(m->err);
    }
  }
}

rd_kafka_vu_t bytes_vu(rd_kafka_vtype_t type, const std::optional<std::string_view>& bytes) {
  rd_kafka_vu_t vu{};
  vu.vtype = type;
  // A null pointer is a null key or value, which Kafka tells from an empty one.
  vu.u.mem = {bytes ? const_cast<char*>(bytes->data()) : nullptr, bytes ? bytes->size() : 0};
  return vu;
}

void produce(rd_kafka_t* rk, const std::string& topic, std::int32_t partition, const RecordView& r) {
  rd_kafka_headers_t* headers = rd_kafka_headers_new(r.headers.size());
  for (const auto& h : r.headers) {
    rd_kafka_header_add(headers, h.name.data(), static_cast<ssize_t>(h.name.size()),
                        h.value ? h.value->data() : nullptr,
                        h.value ? static_cast<ssize_t>(h.value->size()) : 0);
  }
  // rd_kafka_produceva takes a typed array; the RD_KAFKA_V_* macros would
  // need C-style casts our warning set forbids.
  std::array<rd_kafka_vu_t, 7> vus{};
  vus[0].vtype = RD_KAFKA_VTYPE_TOPIC;
  vus[0].u.cstr = topic.c_str();
  vus[1].vtype = RD_KAFKA_VTYPE_PARTITION;
  vus[1].u.i32 = partition;
  vus[2] = bytes_vu(RD_KAFKA_VTYPE_KEY, r.key);
  vus[3] = bytes_vu(RD_KAFKA_VTYPE_VALUE, r.value);
  vus[4].vtype = RD_KAFKA_VTYPE_MSGFLAGS;
  vus[4].u.i = RD_KAFKA_MSG_F_COPY;
  vus[5].vtype = RD_KAFKA_VTYPE_TIMESTAMP;
  vus[5].u.i64 = r.timestamp_ms;
  vus[6].vtype = RD_KAFKA_VTYPE_HEADERS;
  vus[6].u.headers = headers;
  while (true) {
    rd_kafka_error_t* error = rd_kafka_produceva(rk, vus.data(), vus.size());
    if (error == nullptr) {
      return;  // the headers now belong to the record
    }
    const auto code = rd_kafka_error_code(error);
    rd_kafka_error_destroy(error);
    if (code != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      rd_kafka_headers_destroy(headers);
      throw std::runtime_error("journal restore: produce to " + topic + ": " + rd_kafka_err2str(code));
    }
    rd_kafka_poll(rk, 10);
  }
}

}  // namespace

Restored restore(Store& store, const std::string& bootstrap) {
  const auto began = std::chrono::steady_clock::now();
  Failures failures;
  auto conf = kafka::make_conf({
      {"bootstrap.servers", bootstrap},
      {"client.id", "petstore-journal-restore"},
      // Idempotence keeps each partition's order through retries, so every
      // record lands at the offset it had.
      {"enable.idempotence", "true"},
      {"acks", "all"},
      // Large compressed batches: the local broker keeps about 5 MiB of
      // message sets per partition (docs/local-log.md), counted as stored,
      // so a restored log that compresses well keeps more of its history
      // readable than it had when it was written a record at a time.
      {"compression.type", "zstd"},
      {"linger.ms", "20"},
      {"batch.num.messages", "100000"},
      {"batch.size", "1000000"},
      {"queue.buffering.max.messages", "1000000"},
      {"queue.buffering.max.kbytes", "1048576"},
  });
  rd_kafka_conf_set_dr_msg_cb(conf.get(), on_delivery);
  rd_kafka_conf_set_opaque(conf.get(), &failures);
  const kafka::HandlePtr rk = kafka::make_handle(RD_KAFKA_PRODUCER, std::move(conf));

  Restored out;
  for (const auto& topic : store.topics()) {
    for (std::int32_t p = 0; p < topic.partitions; ++p) {
      const auto n = store.load(topic.name, p, [&](const RecordView& r) {
        produce(rk.get(), topic.name, p, r);
        rd_kafka_poll(rk.get(), 0);
        if (++out.records % kProgressEvery == 0) {
          log::info("journal: {} records restored", out.records);
        }
      });
      out.next[{topic.name, p}] = n;
    }
  }
  if (rd_kafka_flush(rk.get(), kFlushTimeoutMs) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw std::runtime_error("journal restore: the broker did not take the records back within " +
                             std::to_string(kFlushTimeoutMs / 1000) + " s");
  }
  if (failures.count > 0) {
    throw std::runtime_error("journal restore: " + std::to_string(failures.count.load()) +
                             " records were not taken back, the first because: " + failures.first);
  }
  for (const auto& [key, n] : out.next) {
    std::int64_t low = 0;
    std::int64_t high = 0;
    if (const auto e = rd_kafka_query_watermark_offsets(rk.get(), key.first.c_str(), key.second, &low, &high,
                                                        kQueryTimeoutMs);
        e != RD_KAFKA_RESP_ERR_NO_ERROR) {
      throw std::runtime_error("journal restore: cannot read the end of " + key.first + ": " +
                               rd_kafka_err2str(e));
    }
    if (high != n) {
      throw std::runtime_error("journal restore: " + key.first + " [" + std::to_string(key.second) +
                               "] ends at " + std::to_string(high) + " after the restore, the journal at " +
                               std::to_string(n));
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return out;
}

}  // namespace petstore::tools::journal
