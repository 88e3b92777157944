#include "kafka/handles.h"

#include <array>

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

int partition_count(rd_kafka_t* rk, const std::string& topic, int timeout_ms) {
  const TopicPtr handle(rd_kafka_topic_new(rk, topic.c_str(), nullptr));
  const rd_kafka_metadata_t* raw = nullptr;
  const auto err = rd_kafka_metadata(rk, 0, handle.get(), &raw, timeout_ms);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw Unavailable("kafka metadata for " + topic + ": " + rd_kafka_err2str(err), false);
  }
  const MetadataPtr md(raw);
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

}  // namespace petstore::kafka
