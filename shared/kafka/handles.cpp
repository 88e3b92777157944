#include "kafka/handles.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <thread>

namespace petstore::kafka {

ConfPtr make_conf(const std::map<std::string, std::string>& properties) {
  ConfPtr conf(rd_kafka_conf_new());
  std::array<char, 512> err{};
  for (const auto& [name, value] : properties) {
    if (rd_kafka_conf_set(conf.get(), name.c_str(), value.c_str(), err.data(), err.size()) !=
        RD_KAFKA_CONF_OK) {
      std::string message = "kafka config ";
      message.append(name).append("=").append(value).append(": ").append(err.data());
      throw std::invalid_argument(message);
    }
  }
  return conf;
}

ConfPtr make_client_conf(std::map<std::string, std::string> properties) {
  properties.emplace("reconnect.backoff.max.ms", "1000");
  properties.emplace("socket.nagle.disable", "true");
  return make_conf(properties);
}

HandlePtr make_handle(rd_kafka_type_t type, ConfPtr conf) {
  std::array<char, 512> err{};
  HandlePtr rk(rd_kafka_new(type, conf.get(), err.data(), err.size()));
  if (!rk) {
    throw Unavailable(
        std::string(type == RD_KAFKA_PRODUCER ? "kafka producer: " : "kafka consumer: ") + err.data(), false);
  }
  static_cast<void>(conf.release());  // rd_kafka_new took ownership
  return rk;
}

namespace {

MetadataPtr topic_metadata(rd_kafka_t* rk, const std::string& topic, int timeout_ms) {
  const TopicPtr handle(rd_kafka_topic_new(rk, topic.c_str(), nullptr));
  const rd_kafka_metadata_t* raw = nullptr;
  const auto err = rd_kafka_metadata(rk, 0, handle.get(), &raw, timeout_ms);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw Unavailable("kafka metadata for " + topic + ": " + rd_kafka_err2str(err), false);
  }
  return MetadataPtr(raw);
}

// How long one attempt waits for a leader's answer, so that there is time
// left to look a dead leader's successor up.
constexpr std::chrono::milliseconds kLeaderAttempt{1000};

}  // namespace

int partition_count(rd_kafka_t* rk, const std::string& topic, int timeout_ms) {
  const auto md = topic_metadata(rk, topic, timeout_ms);
  for (int i = 0; i < md->topic_cnt; ++i) {
    const auto& t = md->topics[i];
    if (topic == t.topic) {
      if (t.err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        throw Unavailable("kafka topic " + topic + ": " + rd_kafka_err2str(t.err), false);
      }
      return t.partition_cnt;
    }
  }
  throw Unavailable("kafka topic " + topic + " not found", false);
}

bool leader_moving(rd_kafka_resp_err_t err) {
  return err == RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION || err == RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE ||
         err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART || err == RD_KAFKA_RESP_ERR_FENCED_LEADER_EPOCH ||
         err == RD_KAFKA_RESP_ERR_OFFSET_NOT_AVAILABLE;
}

bool refresh_metadata(rd_kafka_t* rk, const std::string& topic, int timeout_ms) noexcept {
  const TopicPtr handle(rd_kafka_topic_new(rk, topic.c_str(), nullptr));
  const rd_kafka_metadata_t* raw = nullptr;
  if (rd_kafka_metadata(rk, 0, handle.get(), &raw, timeout_ms) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return false;
  }
  rd_kafka_metadata_destroy(raw);
  return true;
}

namespace {

using Clock = std::chrono::steady_clock;

// What ListOffsets answers for `which` (RD_KAFKA_OFFSET_BEGINNING or
// RD_KAFKA_OFFSET_END), asked of the partition's leader until `deadline`.
// rd_kafka_offsets_for_times, because it keeps to its timeout:
// rd_kafka_query_watermark_offsets waits for a dead leader's request to
// time out (socket.timeout.ms, a minute), whatever it is given.
std::int64_t list_offset(rd_kafka_t* rk, const std::string& topic, std::int32_t partition, std::int64_t which,
                         Clock::time_point deadline) {
  const auto attempt = [&] {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    return static_cast<int>(std::clamp(left, std::chrono::milliseconds(1), kLeaderAttempt).count());
  };
  for (;;) {
    const PartitionListPtr list(rd_kafka_topic_partition_list_new(1));
    rd_kafka_topic_partition_list_add(list.get(), topic.c_str(), partition)->offset = which;
    auto err = rd_kafka_offsets_for_times(rk, list.get(), attempt());
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      err = list->elems[0].err;
    }
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      return list->elems[0].offset;
    }
    // A leader that is down takes the request and never answers: its
    // silence, too, may be a leader that moved.
    const bool moved =
        leader_moving(err) || err == RD_KAFKA_RESP_ERR__TIMED_OUT || err == RD_KAFKA_RESP_ERR__TRANSPORT;
    if (!moved || Clock::now() >= deadline) {
      throw Unavailable(
          "kafka offsets of " + topic + "/" + std::to_string(partition) + ": " + rd_kafka_err2str(err),
          false);
    }
    std::this_thread::sleep_for(kLeaderRetry);
    refresh_metadata(rk, topic, attempt());
  }
}

}  // namespace

Watermarks query_watermarks(rd_kafka_t* rk, const std::string& topic, std::int32_t partition,
                            int timeout_ms) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  Watermarks w;
  w.low = list_offset(rk, topic, partition, RD_KAFKA_OFFSET_BEGINNING, deadline);
  w.high = list_offset(rk, topic, partition, RD_KAFKA_OFFSET_END, deadline);
  return w;
}

std::int64_t query_end(rd_kafka_t* rk, const std::string& topic, std::int32_t partition, int timeout_ms) {
  return list_offset(rk, topic, partition, RD_KAFKA_OFFSET_END,
                     Clock::now() + std::chrono::milliseconds(timeout_ms));
}

}  // namespace petstore::kafka
