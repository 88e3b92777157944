#include "kafka/consumer.h"

#include <array>

#include "kafka/client_metrics.h"
#include "log/log.h"

namespace petstore::kafka {

const std::string* Message::header(std::string_view name) const {
  for (const auto& h : headers) {
    if (h.name == name) {
      return &h.value;
    }
  }
  return nullptr;
}

Consumer::Consumer(const ConsumerSettings& settings, StartOffsets start_offsets, OnLoss on_loss)
    : start_offsets_(std::move(start_offsets)), on_loss_(std::move(on_loss)), group_(settings.group_id) {
  auto conf = make_client_conf({
      {"bootstrap.servers", settings.bootstrap_servers},
      {"group.id", settings.group_id},
      {"client.id", settings.client_id},
      {"enable.auto.commit", "true"},
      {"enable.auto.offset.store", "false"},
      // Never a silent reset: a position past the log's end is a loss (poll).
      {"auto.offset.reset", "error"},
      {"isolation.level", "read_committed"},
      {"fetch.wait.max.ms", std::to_string(settings.fetch_wait_max_ms)},
      {"fetch.error.backoff.ms", "50"},
      {"session.timeout.ms", "6000"},
      {"heartbeat.interval.ms", "500"},
      {"topic.metadata.refresh.interval.ms", "10000"},
  });
  rd_kafka_conf_set_rebalance_cb(conf.get(), &Consumer::on_rebalance);
  rd_kafka_conf_set_opaque(conf.get(), this);
  rk_ = kafka::make_handle(RD_KAFKA_CONSUMER, std::move(conf));
  rd_kafka_poll_set_consumer(rk_.get());

  const PartitionListPtr subscription(
      rd_kafka_topic_partition_list_new(static_cast<int>(settings.topics.size())));
  for (const auto& t : settings.topics) {
    rd_kafka_topic_partition_list_add(subscription.get(), t.c_str(), RD_KAFKA_PARTITION_UA);
  }
  if (const auto e = rd_kafka_subscribe(rk_.get(), subscription.get()); e != 0) {
    throw Unavailable(std::string("kafka subscribe: ") + rd_kafka_err2str(e), false);
  }
}

Consumer::~Consumer() {
  // Leaves the group at once so the partitions move to another replica now,
  // not after the session timeout.
  rd_kafka_consumer_close(rk_.get());
}

void Consumer::on_rebalance(rd_kafka_t* rk, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* parts,
                            void* opaque) {
  auto* self = static_cast<Consumer*>(opaque);
  if (err != RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
    log::info("kafka: partitions revoked");
    rd_kafka_assign(rk, nullptr);
    return;
  }
  self->start_at(rk, parts);
  log::info("kafka: {} partitions assigned", parts->cnt);
  rd_kafka_assign(rk, parts);
}

void Consumer::resolve_start(rd_kafka_t* rk, rd_kafka_topic_partition_list_t* parts) {
  std::vector<TopicPartition> asked;
  asked.reserve(static_cast<size_t>(parts->cnt));
  for (int i = 0; i < parts->cnt; ++i) {
    asked.push_back({parts->elems[i].topic, parts->elems[i].partition});
  }
  const auto offsets = start_offsets_(asked);
  bool committed = false;
  for (int i = 0; i < parts->cnt; ++i) {
    auto& el = parts->elems[i];
    const auto it = offsets.find({el.topic, el.partition});
    el.offset = it == offsets.end() ? RD_KAFKA_OFFSET_BEGINNING : it->second;
    committed = committed || el.offset == RD_KAFKA_OFFSET_INVALID;
  }
  if (!committed) {
    return;
  }
  // The group's committed offsets, looked up here: a partition with none
  // starts at the beginning, not at auto.offset.reset's error.
  const PartitionListPtr copy(rd_kafka_topic_partition_list_copy(parts));
  if (const auto e = rd_kafka_committed(rk, copy.get(), 10000); e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw Unavailable(std::string("kafka committed offsets: ") + rd_kafka_err2str(e), false);
  }
  for (int i = 0; i < parts->cnt; ++i) {
    if (parts->elems[i].offset == RD_KAFKA_OFFSET_INVALID) {
      parts->elems[i].offset = copy->elems[i].offset >= 0 ? copy->elems[i].offset : RD_KAFKA_OFFSET_BEGINNING;
    }
  }
}

void Consumer::start_at(rd_kafka_t* rk, rd_kafka_topic_partition_list_t* parts) {
  try {
    resolve_start(rk, parts);
  } catch (const std::exception& e) {
    // Without our applied positions we cannot resume safely; starting from
    // the beginning is always correct because applying is idempotent.
    log::warn("kafka: cannot read applied positions ({}), replaying from the start", e.what());
    for (int i = 0; i < parts->cnt; ++i) {
      parts->elems[i].offset = RD_KAFKA_OFFSET_BEGINNING;
    }
  }
}

std::vector<Message> Consumer::poll(size_t max, std::chrono::milliseconds wait) {
  client_metrics::consumer_positions(rk_.get(), group_);
  std::vector<Message> out;
  auto timeout = static_cast<int>(wait.count());
  while (out.size() < max) {
    const MessagePtr m(rd_kafka_consumer_poll(rk_.get(), timeout));
    timeout = 0;
    if (!m) {
      break;
    }
    if (m->err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET && m->rkt != nullptr) {
      const TopicPartition tp{rd_kafka_topic_name(m->rkt), m->partition};
      log::error(
          "ALERT kafka consumer {}: {}/{} no longer holds the position this reader reached ({}): records it "
          "had read are lost; reading the partition again from its start",
          group_, tp.topic, tp.partition, rd_kafka_message_errstr(m.get()));
      if (on_loss_) {
        on_loss_(tp);
      }
      replay(tp);
      continue;
    }
    if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      if (m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        log::warn("kafka consumer: {}", rd_kafka_message_errstr(m.get()));
      }
      continue;
    }
    out.push_back(to_message(*m));
  }
  return out;
}

Message to_message(const rd_kafka_message_t& m) {
  Message msg;
  copy_into(m, msg);
  return msg;
}

void copy_into(const rd_kafka_message_t& m, Message& out) {
  out.topic.assign(rd_kafka_topic_name(m.rkt));
  out.partition = m.partition;
  out.offset = m.offset;
  out.key.assign(m.key != nullptr ? static_cast<const char*>(m.key) : "", m.key != nullptr ? m.key_len : 0);
  out.value.assign(m.payload != nullptr ? static_cast<const char*>(m.payload) : "",
                   m.payload != nullptr ? m.len : 0);
  size_t count = 0;
  rd_kafka_headers_t* hdrs = nullptr;
  // librdkafka's accessor takes a non-const message but only reads it.
  if (rd_kafka_message_headers(const_cast<rd_kafka_message_t*>(&m), &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    const char* name = nullptr;
    const void* value = nullptr;
    size_t size = 0;
    for (; rd_kafka_header_get_all(hdrs, count, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR;
         ++count) {
      if (count == out.headers.size()) {
        out.headers.emplace_back();
      }
      auto& h = out.headers[count];
      h.name.assign(name);
      h.value.assign(value != nullptr ? static_cast<const char*>(value) : "", value != nullptr ? size : 0);
    }
  }
  out.headers.resize(count);
}

void Consumer::rewind(const std::vector<TopicPartition>& partitions) {
  const PartitionListPtr list(rd_kafka_topic_partition_list_new(static_cast<int>(partitions.size())));
  for (const auto& tp : partitions) {
    rd_kafka_topic_partition_list_add(list.get(), tp.topic.c_str(), tp.partition);
  }
  resolve_start(rk_.get(), list.get());
  // Seeking purges what was fetched for the partitions before it
  // (librdkafka's op version barrier), so no stale record follows.
  if (rd_kafka_error_t* error = rd_kafka_seek_partitions(rk_.get(), list.get(), 5000); error != nullptr) {
    std::string what = rd_kafka_error_string(error);
    rd_kafka_error_destroy(error);
    throw Unavailable("kafka seek: " + what, false);
  }
  for (int i = 0; i < list->cnt; ++i) {
    if (list->elems[i].err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      throw Unavailable(
          std::string("kafka seek ") + list->elems[i].topic + ": " + rd_kafka_err2str(list->elems[i].err),
          false);
    }
  }
}

std::vector<TopicPartition> Consumer::assignment() {
  rd_kafka_topic_partition_list_t* raw = nullptr;
  if (const auto e = rd_kafka_assignment(rk_.get(), &raw); e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw Unavailable(std::string("kafka assignment: ") + rd_kafka_err2str(e), false);
  }
  const PartitionListPtr list(raw);
  std::vector<TopicPartition> out;
  out.reserve(static_cast<size_t>(list->cnt));
  for (int i = 0; i < list->cnt; ++i) {
    out.push_back({list->elems[i].topic, list->elems[i].partition});
  }
  return out;
}

void Consumer::replay(const TopicPartition& tp) {
  // After the error the partition's fetcher has stopped, and a seek is
  // refused (librdkafka's fetch state NONE): the assignment is made again,
  // `tp` from its beginning and every other partition where it stands.
  rd_kafka_topic_partition_list_t* raw = nullptr;
  if (const auto e = rd_kafka_assignment(rk_.get(), &raw); e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    log::error("kafka consumer {}: cannot read {}/{} again: {}", group_, tp.topic, tp.partition,
               rd_kafka_err2str(e));
    return;
  }
  const PartitionListPtr list(raw);
  const PartitionListPtr at(rd_kafka_topic_partition_list_copy(list.get()));
  rd_kafka_position(rk_.get(), at.get());
  start_at(rk_.get(), list.get());  // a partition not read yet starts as at an assignment
  for (int i = 0; i < list->cnt; ++i) {
    auto& el = list->elems[i];
    if (tp.topic == el.topic && tp.partition == el.partition) {
      el.offset = RD_KAFKA_OFFSET_BEGINNING;
    } else if (at->elems[i].offset >= 0) {
      el.offset = at->elems[i].offset;
    }
    el.err = RD_KAFKA_RESP_ERR_NO_ERROR;
  }
  if (const auto e = rd_kafka_assign(rk_.get(), list.get()); e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    log::error("kafka consumer {}: cannot read {}/{} again: {}", group_, tp.topic, tp.partition,
               rd_kafka_err2str(e));
  }
}

std::map<TopicPartition, std::int64_t> Consumer::positions() {
  rd_kafka_topic_partition_list_t* raw = nullptr;
  if (const auto e = rd_kafka_assignment(rk_.get(), &raw); e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw Unavailable(std::string("kafka assignment: ") + rd_kafka_err2str(e), false);
  }
  const PartitionListPtr list(raw);
  std::map<TopicPartition, std::int64_t> out;
  if (list->cnt == 0 || rd_kafka_position(rk_.get(), list.get()) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return out;
  }
  for (int i = 0; i < list->cnt; ++i) {
    if (list->elems[i].offset >= 0) {
      out[{list->elems[i].topic, list->elems[i].partition}] = list->elems[i].offset;
    }
  }
  return out;
}

void Consumer::commit_positions() {
  const auto at = positions();
  if (at.empty()) {
    return;
  }
  const PartitionListPtr list(rd_kafka_topic_partition_list_new(static_cast<int>(at.size())));
  for (const auto& [tp, offset] : at) {
    rd_kafka_topic_partition_list_add(list.get(), tp.topic.c_str(), tp.partition)->offset = offset;
  }
  rd_kafka_offsets_store(rk_.get(), list.get());
  // Nothing to send when nothing moved since the last commit (_NO_OFFSET).
  rd_kafka_commit(rk_.get(), nullptr, 1);
}

void Consumer::applied(const Message& m) {
  const PartitionListPtr list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), m.topic.c_str(), m.partition)->offset = m.offset + 1;
  rd_kafka_offsets_store(rk_.get(), list.get());
}

}  // namespace petstore::kafka
