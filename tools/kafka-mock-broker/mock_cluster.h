#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kafka/handles.h"  // rdkafka.h must come before rdkafka_mock.h

#include <librdkafka/rdkafka_mock.h>

namespace petstore::tools {

struct MockClusterDeleter {
  void operator()(rd_kafka_mock_cluster_t* c) const noexcept { rd_kafka_mock_cluster_destroy(c); }
};

// librdkafka's in-process Kafka cluster, owned: real Kafka protocol on loopback
// TCP, log kept in memory. Every fault-injection call the control API offers
// maps onto one of these methods. Each throws std::runtime_error on failure.
class MockCluster {
 public:
  explicit MockCluster(int brokers);
  ~MockCluster();
  MockCluster(const MockCluster&) = delete;
  MockCluster& operator=(const MockCluster&) = delete;

  [[nodiscard]] std::string bootstrap() const;
  [[nodiscard]] int brokers() const { return brokers_; }
  // The brokers' ports, in the order of their ids (1, 2, ...), as the
  // bootstrap list has them.
  [[nodiscard]] std::vector<int> ports() const;

  void create_topic(const std::string& name, int partitions);
  void broker_down(std::int32_t broker);
  void broker_up(std::int32_t broker);
  void broker_rtt(std::int32_t broker, int rtt_ms);
  void push_request_errors(std::int16_t api_key, const std::vector<rd_kafka_resp_err_t>& errors);
  void clear_request_errors(std::int16_t api_key);
  void set_leader(const std::string& topic, std::int32_t partition, std::int32_t broker);

 private:
  // A Kafka broker turns Nagle's algorithm off on every connection it
  // accepts (Apache Kafka's SocketServer, Acceptor.accept:
  // setTcpNoDelay(true)); librdkafka 2.0.2's mock leaves it on (its
  // listeners get SO_REUSEADDR alone, src/rdkafka_mock.c). With Nagle on, a
  // response written while the one before it on the connection is not yet
  // acknowledged waits for that acknowledgement, which the client delays
  // while it has no request to send: a producer with several requests in
  // flight got each delivery report 8-17 ms late under load, and the saga
  // crawled (docs/performance.md, "The local broker's Nagle"). The mock
  // gives no hook on its sockets, so this finds its listeners among the
  // process's descriptors (their ports are the bootstrap list's) and sets
  // TCP_NODELAY there; Linux copies it to every connection a listener
  // accepts. Throws std::runtime_error unless it found one a broker.
  void disable_nagle();

  int brokers_;
  kafka::HandlePtr rk_;
  // Declared after rk_ so it is destroyed first: the cluster borrows rk_.
  std::unique_ptr<rd_kafka_mock_cluster_t, MockClusterDeleter> cluster_;
};

}  // namespace petstore::tools
