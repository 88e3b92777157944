#include "kafka/producer.h"

#include <algorithm>
#include <array>
#include <future>
#include <map>
#include <memory>

#include "kafka/client_metrics.h"
#include "log/log.h"

namespace petstore::kafka {
namespace {

struct Delivery {
  std::promise<Position> done;
};

// The delivery report is the only place that learns whether a record made it.
// It owns the Delivery handed over as the message's opaque pointer.
void on_delivery(rd_kafka_t* /*rk*/, const rd_kafka_message_t* msg, void* /*opaque*/) {
  client_metrics::delivered(*msg);
  std::unique_ptr<Delivery> delivery(static_cast<Delivery*>(msg->_private));
  if (!delivery) {
    return;
  }
  if (msg->err == RD_KAFKA_RESP_ERR_NO_ERROR && msg->offset >= 0) {
    delivery->done.set_value(Position{msg->partition, msg->offset});
    return;
  }
  if (msg->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
    // Delivered, and no offset: "implicitly acked by subsequent batch
    // success" (v2.0.2 src/rdkafka_request.c,
    // rd_kafka_handle_idempotent_Produce_success). A request failed with an
    // uncertain outcome and a later one to the partition succeeded; Kafka's
    // sequence check means the first was written too, but nobody can read
    // it back at a known offset, so its outcome is unknown here.
    delivery->done.set_exception(std::make_exception_ptr(Unavailable(
        "kafka delivery: acknowledged without an offset (implicitly, by a later request)", true)));
    return;
  }
  const bool maybe = rd_kafka_message_status(msg) != RD_KAFKA_MSG_STATUS_NOT_PERSISTED;
  delivery->done.set_exception(std::make_exception_ptr(
      Unavailable(std::string("kafka delivery failed: ") + rd_kafka_err2str(msg->err), maybe)));
}

// librdkafka's error callback: only a fatal error needs us; the rest it
// retries by itself. It runs on the poller thread (rd_kafka_poll).
void on_error(rd_kafka_t* rk, int err, const char* reason, void* opaque) {
  if (err != RD_KAFKA_RESP_ERR__FATAL) {
    return;
  }
  std::array<char, 512> why{};
  const auto cause = rd_kafka_fatal_error(rk, why.data(), why.size());
  log::error("kafka producer: fatal error {} ({}): {}", rd_kafka_err2name(cause), why.data(), reason);
  static_cast<std::atomic<bool>*>(opaque)->store(true);
}

}  // namespace

Producer::Producer(const ProducerSettings& settings)
    : report_deadline_(std::chrono::milliseconds(settings.delivery_timeout_ms) + kDeliveryReportLateness),
      settings_(settings),
      rk_(make()) {
  poller_ = std::thread([this] { poll_loop(); });
}

HandlePtr Producer::make() const {
  std::map<std::string, std::string> properties{
      {"bootstrap.servers", settings_.bootstrap_servers},
      {"client.id", settings_.client_id},
      {"enable.idempotence", "true"},
      {"acks", "all"},
      {"linger.ms", std::to_string(settings_.linger_ms)},
      {"message.timeout.ms", std::to_string(settings_.delivery_timeout_ms)},
      {"partitioner", "murmur2_random"},
  };
  if (!settings_.transactional_id.empty()) {
    properties.emplace("transactional.id", settings_.transactional_id);
    properties.emplace("transaction.timeout.ms", std::to_string(settings_.transaction_timeout_ms));
  }
  auto conf = make_client_conf(std::move(properties));
  rd_kafka_conf_set_dr_msg_cb(conf.get(), on_delivery);
  rd_kafka_conf_set_error_cb(conf.get(), on_error);
  rd_kafka_conf_set_opaque(conf.get(), const_cast<std::atomic<bool>*>(&fatal_));
  return kafka::make_handle(RD_KAFKA_PRODUCER, std::move(conf));
}

Producer::~Producer() {
  stop_ = true;
  poller_.join();
  rd_kafka_flush(rk_.get(), 5000);  // serves the last delivery reports itself
}

void Producer::poll_loop() {
  while (!stop_) {
    rd_kafka_poll(rk_.get(), 50);
    if (fatal_ && settings_.transactional_id.empty()) {
      rebuild();
    } else if (fatal_ && !fenced_.exchange(true)) {
      // Final: the owner of the id builds a new producer when it claims again.
      log::warn("kafka producer {}: fenced by the broker; what it sends from now on is refused",
                settings_.transactional_id);
    }
  }
  rd_kafka_poll(rk_.get(), 0);
}

void Producer::rebuild() {
  HandlePtr fresh;
  try {
    fresh = make();
  } catch (const Unavailable& e) {
    log::error("kafka producer: cannot build a new producer ({}); trying again", e.what());
    return;
  }
  HandlePtr old;
  {
    const std::unique_lock lock(handle_mutex_);
    old = std::exchange(rk_, std::move(fresh));
    fatal_ = false;
  }
  ++rebuilds_;
  // Every record the old handle held gets its report now: failed, with the
  // status librdkafka knows (a record in flight may be persisted).
  rd_kafka_purge(old.get(), RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
  rd_kafka_poll(old.get(), 0);
  rd_kafka_flush(old.get(), 0);
  log::warn("kafka producer: rebuilt after a fatal error ({} so far)", rebuilds_.load());
}

void Producer::raise_fatal_error(const char* reason) {
  const std::shared_lock lock(handle_mutex_);
  rd_kafka_test_fatal_error(rk_.get(), RD_KAFKA_RESP_ERR_OUT_OF_ORDER_SEQUENCE_NUMBER, reason);
}

std::int32_t Producer::partitions(const std::string& topic) {
  {
    const std::lock_guard lock(partitions_mutex_);
    if (const auto it = partition_counts_.find(topic); it != partition_counts_.end()) {
      return it->second;
    }
  }
  const auto count = [&] {
    const std::shared_lock lock(handle_mutex_);
    return partition_count(rk_.get(), topic, 5000);
  }();
  const std::lock_guard lock(partitions_mutex_);
  partition_counts_[topic] = count;
  return count;
}

std::int32_t Producer::partition_for(const std::string& topic, const std::string& key) {
  return rd_kafka_msg_partitioner_murmur2(nullptr, key.data(), key.size(), partitions(topic), nullptr,
                                          nullptr);
}

rd_kafka_resp_err_t enqueue(rd_kafka_t* rk, const Record& record, std::int32_t partition, void* opaque) {
  rd_kafka_headers_t* headers = rd_kafka_headers_new(record.headers.size());
  for (const auto& h : record.headers) {
    rd_kafka_header_add(headers, h.name.data(), static_cast<ssize_t>(h.name.size()), h.value.data(),
                        static_cast<ssize_t>(h.value.size()));
  }
  // rd_kafka_produceva takes a typed array; the RD_KAFKA_V_* macros would
  // need C-style casts our warning set forbids.
  std::array<rd_kafka_vu_t, 7> vus{};
  vus[0].vtype = RD_KAFKA_VTYPE_TOPIC;
  vus[0].u.cstr = record.topic.c_str();
  vus[1].vtype = RD_KAFKA_VTYPE_PARTITION;
  vus[1].u.i32 = partition;
  vus[2].vtype = RD_KAFKA_VTYPE_KEY;
  vus[2].u.mem = {const_cast<char*>(record.key.data()), record.key.size()};
  vus[3].vtype = RD_KAFKA_VTYPE_VALUE;
  vus[3].u.mem = {const_cast<char*>(record.value.data()), record.value.size()};
  vus[4].vtype = RD_KAFKA_VTYPE_MSGFLAGS;
  vus[4].u.i = RD_KAFKA_MSG_F_COPY;
  vus[5].vtype = RD_KAFKA_VTYPE_HEADERS;
  vus[5].u.headers = headers;
  vus[6].vtype = RD_KAFKA_VTYPE_OPAQUE;
  vus[6].u.ptr = opaque;
  const rd_kafka_error_t* produce_error = rd_kafka_produceva(rk, vus.data(), vus.size());
  const auto err = produce_error == nullptr ? RD_KAFKA_RESP_ERR_NO_ERROR : rd_kafka_error_code(produce_error);
  if (produce_error != nullptr) {
    rd_kafka_error_destroy(const_cast<rd_kafka_error_t*>(produce_error));
    rd_kafka_headers_destroy(headers);  // only freed by librdkafka on success
  }
  return err;
}

Position Producer::append(const Record& record) {
  return append_to(record, partition_for(record.topic, record.key));
}

Producer::Sent Producer::send_to(const Record& record, std::int32_t partition) {
  auto delivery = std::make_unique<Delivery>();
  auto report = delivery->done.get_future();
  const std::shared_lock lock(handle_mutex_);
  const auto err = enqueue(rk_.get(), record, partition, delivery.get());
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw Unavailable(std::string("kafka produce: ") + rd_kafka_err2str(err), false);
  }
  static_cast<void>(delivery.release());  // now owned by on_delivery
  return {std::move(report), std::chrono::steady_clock::now() + report_deadline_};
}

Position Producer::Sent::wait() {
  if (report_.wait_until(deadline_) != std::future_status::ready) {
    // The report is late beyond what librdkafka's timers explain (a stalled
    // process?). The record may still be written: say so, so the caller
    // treats the outcome as unknown. The Delivery is freed when it comes.
    throw Unavailable("kafka produce: no delivery report by its deadline", true);
  }
  return report_.get();
}

Position Producer::append_to(const Record& record, std::int32_t partition) {
  return send_to(record, partition).wait();
}

Watermarks Producer::watermarks(const std::string& topic, std::int32_t partition, int timeout_ms) {
  const std::shared_lock lock(handle_mutex_);
  return query_watermarks(rk_.get(), topic, partition, timeout_ms);
}

std::vector<Watermarks> Producer::watermarks(const std::string& topic, int timeout_ms) {
  const auto n = partitions(topic);
  std::vector<Watermarks> out(static_cast<size_t>(n));
  for (const auto which : {RD_KAFKA_OFFSET_BEGINNING, RD_KAFKA_OFFSET_END}) {
    // ListOffsets takes these two logical offsets as its "earliest" and
    // "latest" timestamps, for a whole list of partitions at once.
    const PartitionListPtr list(rd_kafka_topic_partition_list_new(n));
    for (std::int32_t p = 0; p < n; ++p) {
      rd_kafka_topic_partition_list_add(list.get(), topic.c_str(), p)->offset = which;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
      {
        const std::shared_lock lock(handle_mutex_);
        err = rd_kafka_offsets_for_times(rk_.get(), list.get(), timeout_ms);
      }
      for (int i = 0; i < list->cnt && err == RD_KAFKA_RESP_ERR_NO_ERROR; ++i) {
        err = list->elems[i].err;
      }
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
        break;
      }
      if (!leader_moving(err) || std::chrono::steady_clock::now() >= deadline) {
        throw Unavailable("kafka offsets of " + topic + ": " + rd_kafka_err2str(err), false);
      }
      std::this_thread::sleep_for(kLeaderRetry);
      {
        const std::shared_lock lock(handle_mutex_);
        refresh_metadata(rk_.get(), topic, timeout_ms);
      }
      for (int i = 0; i < list->cnt; ++i) {  // the answer overwrote the logical offsets asked for
        list->elems[i].offset = which;
        list->elems[i].err = RD_KAFKA_RESP_ERR_NO_ERROR;
      }
    }
    for (int i = 0; i < list->cnt; ++i) {
      const auto& el = list->elems[i];
      auto& w = out.at(static_cast<size_t>(el.partition));
      (which == RD_KAFKA_OFFSET_BEGINNING ? w.low : w.high) = el.offset;
    }
  }
  return out;
}

namespace {

constexpr auto kCommitResumeAtLeast = std::chrono::milliseconds(1000);

// Takes an rd_kafka_error_t over: its description, and what it says of the transaction.
struct TxnError {
  std::string what;
  bool retriable = false;
  bool requires_abort = false;
  bool fatal = false;
};
TxnError take(rd_kafka_error_t* error) {
  TxnError out{rd_kafka_error_string(error), rd_kafka_error_is_retriable(error) != 0,
               rd_kafka_error_txn_requires_abort(error) != 0, rd_kafka_error_is_fatal(error) != 0};
  rd_kafka_error_destroy(error);
  return out;
}

}  // namespace

void Producer::init_transactions(int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    rd_kafka_error_t* error = nullptr;
    {
      const std::shared_lock lock(handle_mutex_);
      error = rd_kafka_init_transactions(rk_.get(), timeout_ms);
    }
    if (error == nullptr) {
      return;
    }
    const auto e = take(error);
    if (e.fatal) {
      fenced_ = true;
    }
    if (!e.retriable || std::chrono::steady_clock::now() >= deadline) {
      throw Unavailable("kafka init_transactions (" + settings_.transactional_id + "): " + e.what, false);
    }
  }
}

void Producer::begin_transaction() {
  rd_kafka_error_t* error = nullptr;
  {
    const std::shared_lock lock(handle_mutex_);
    error = rd_kafka_begin_transaction(rk_.get());
  }
  if (error != nullptr) {
    const auto e = take(error);
    if (e.fatal) {
      fenced_ = true;
    }
    throw Unavailable("kafka begin_transaction (" + settings_.transactional_id + "): " + e.what, false);
  }
}

void Producer::commit_transaction(int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  const std::shared_lock lock(handle_mutex_);
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    rd_kafka_error_t* error =
        rd_kafka_commit_transaction(rk_.get(), static_cast<int>(std::max<std::int64_t>(left.count(), 1)));
    if (error == nullptr) {
      client_metrics::transaction("committed");
      return;
    }
    const auto e = take(error);
    if (e.fatal) {
      fenced_ = true;
      client_metrics::transaction("failed");
      throw Unavailable("kafka commit (" + settings_.transactional_id + "), fenced: " + e.what, true);
    }
    if (e.requires_abort) {
      // The broker refused a record or the transaction: abort it, so that
      // nothing of it is ever visible to a read_committed reader.
      if (rd_kafka_error_t* abort = rd_kafka_abort_transaction(rk_.get(), timeout_ms); abort != nullptr) {
        const auto a = take(abort);
        if (a.fatal) {
          fenced_ = true;
        }
        client_metrics::transaction("failed");
        throw Unavailable(
            "kafka commit (" + settings_.transactional_id + "): " + e.what + "; abort: " + a.what, true);
      }
      client_metrics::transaction("aborted");
      throw Unavailable("kafka commit (" + settings_.transactional_id + "), aborted: " + e.what, false);
    }
    // Resumed only with time to spare. librdkafka 2.0.2 forgets a commit
    // whose resumed call times out in its first (local) step, while the
    // EndTxn the earlier call sent is still on its way; that EndTxn's
    // success then trips its transaction-state assertion and aborts the
    // process (docs/reliability.md, "librdkafka's faults").
    if (!e.retriable || deadline - std::chrono::steady_clock::now() < kCommitResumeAtLeast) {
      client_metrics::transaction("failed");
      throw Unavailable("kafka commit (" + settings_.transactional_id + "): " + e.what, true);
    }
  }
}

void Producer::abort_transaction(int timeout_ms) {
  const std::shared_lock lock(handle_mutex_);
  if (rd_kafka_error_t* error = rd_kafka_abort_transaction(rk_.get(), timeout_ms); error != nullptr) {
    const auto e = take(error);
    if (e.fatal) {
      fenced_ = true;
    }
    client_metrics::transaction("failed");
    throw Unavailable("kafka abort (" + settings_.transactional_id + "): " + e.what, false);
  }
  client_metrics::transaction("aborted");
}

bool Producer::reachable(int timeout_ms) {
  const rd_kafka_metadata_t* raw = nullptr;
  const std::shared_lock lock(handle_mutex_);
  const auto err = rd_kafka_metadata(rk_.get(), 0, nullptr, &raw, timeout_ms);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return false;
  }
  const MetadataPtr md(raw);
  return md->broker_cnt > 0;
}

}  // namespace petstore::kafka
