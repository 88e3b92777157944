#include "mock_cluster.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <set>
#include <stdexcept>

#include "net/own_sockets.h"

namespace petstore::tools {
namespace {

void check(rd_kafka_resp_err_t err, const std::string& what) {
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw std::runtime_error(what + ": " + rd_kafka_err2str(err));
  }
}

}  // namespace

MockCluster::MockCluster(int brokers) : brokers_(brokers) {
  // The mock needs a client handle for its own bookkeeping; a bare producer
  // that never produces serves.
  auto conf = kafka::make_conf({{"client.id", "petstore-mock-cluster"}});
  rk_ = kafka::make_handle(RD_KAFKA_PRODUCER, std::move(conf));
  cluster_.reset(rd_kafka_mock_cluster_new(rk_.get(), brokers));
  if (!cluster_) {
    throw std::runtime_error("rd_kafka_mock_cluster_new failed");
  }
  disable_nagle();
}

std::vector<int> MockCluster::ports() const {
  std::vector<int> ports;
  const auto list = bootstrap();  // "host:port,host:port,..."
  size_t begin = 0;
  while (begin < list.size()) {
    const auto end = std::min(list.find(',', begin), list.size());
    const auto colon = list.rfind(':', end - 1);
    if (colon != std::string::npos && colon >= begin) {
      ports.push_back(std::stoi(list.substr(colon + 1, end - colon - 1)));
    }
    begin = end + 1;
  }
  return ports;
}

void MockCluster::disable_nagle() {
  const auto list = ports();
  const std::set<int> brokers(list.begin(), list.end());
  int listeners = 0;
  net::for_each_descriptor([&](int fd) {
    if (brokers.count(net::local_port(fd)) != 0 && !net::connected(fd)) {
      const int on = 1;
      if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on)) == 0) {
        ++listeners;
      }
    }
    return true;
  });
  if (listeners != brokers_) {
    throw std::runtime_error("turned Nagle off on " + std::to_string(listeners) + " listeners of " +
                             std::to_string(brokers_) + " brokers");
  }
}

MockCluster::~MockCluster() = default;

std::string MockCluster::bootstrap() const {
  return rd_kafka_mock_cluster_bootstraps(cluster_.get());
}

void MockCluster::create_topic(const std::string& name, int partitions) {
  check(rd_kafka_mock_topic_create(cluster_.get(), name.c_str(), partitions, std::min(brokers_, 3)),
        "create topic " + name);
}

void MockCluster::broker_down(std::int32_t broker) {
  check(rd_kafka_mock_broker_set_down(cluster_.get(), broker), "broker down");
  // The mock closes a downed broker's listener and opens a new one on its
  // port at once (src/rdkafka_mock.c, RD_KAFKA_MOCK_CMD_BROKER_SET_UPDOWN),
  // to listen on when the broker comes up: the new one needs it too.
  disable_nagle();
}

void MockCluster::broker_up(std::int32_t broker) {
  check(rd_kafka_mock_broker_set_up(cluster_.get(), broker), "broker up");
}

void MockCluster::broker_rtt(std::int32_t broker, int rtt_ms) {
  check(rd_kafka_mock_broker_set_rtt(cluster_.get(), broker, rtt_ms), "broker rtt");
}

void MockCluster::push_request_errors(std::int16_t api_key, const std::vector<rd_kafka_resp_err_t>& errors) {
  rd_kafka_mock_push_request_errors_array(cluster_.get(), api_key, errors.size(), errors.data());
}

void MockCluster::clear_request_errors(std::int16_t api_key) {
  rd_kafka_mock_clear_request_errors(cluster_.get(), api_key);
}

void MockCluster::set_leader(const std::string& topic, std::int32_t partition, std::int32_t broker) {
  check(rd_kafka_mock_partition_set_leader(cluster_.get(), topic.c_str(), partition, broker), "set leader");
}

}  // namespace petstore::tools
