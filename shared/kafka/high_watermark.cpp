#include "kafka/high_watermark.h"

namespace petstore::kafka {

HighWatermark::HighWatermark(std::string brokers, std::string client_id)
    : brokers_(std::move(brokers)), client_id_(std::move(client_id)) {}

std::int64_t HighWatermark::of(const std::string& topic, std::int32_t partition, int timeout_ms) {
  std::call_once(made_, [this] {
    rk_ = make_handle(RD_KAFKA_CONSUMER, make_client_conf({
                                             {"bootstrap.servers", brokers_},
                                             {"client.id", client_id_},
                                             {"isolation.level", "read_uncommitted"},
                                         }));
  });
  return query_end(rk_.get(), topic, partition, timeout_ms);
}

}  // namespace petstore::kafka
