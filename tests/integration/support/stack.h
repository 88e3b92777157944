#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <httplib.h>

#include "kafka/consumer.h"
#include "redis/connection.h"

namespace petstore::testing {

// The one broker and one Redis that scripts/test starts for the whole run,
// found through the environment it exports.
struct Stack {
  std::string kafka_brokers;  // PETSTORE_TEST_KAFKA_BROKERS
  std::string redis_host = "127.0.0.1";
  int redis_port = 0;  // PETSTORE_TEST_REDIS_PORT
  std::string control_host = "127.0.0.1";
  int control_port = 0;  // PETSTORE_TEST_MOCK_CONTROL_PORT

  static const Stack& get();
  // The test Redis, with the client's default timeouts.
  [[nodiscard]] redis::Endpoint redis_endpoint() const;
};

// A name no other test (or earlier run) uses: tests get their own topics,
// Redis prefixes and consumer groups.
std::string unique_name(const std::string& stem);

// Control API of the mock broker (tools/kafka-mock-broker).
void create_topic(const std::string& name, int partitions);
void broker_down(int broker);
void broker_up(int broker);
void move_leader(const std::string& topic, int partition, int broker);

// Every record of a topic, all partitions, from the beginning to the end.
std::vector<kafka::Message> read_topic(const std::string& topic);
// The records of a topic that count (es::EpochRule): its events, without
// the single writers' claim records and whatever a fenced owner appended.
std::vector<kafka::Message> read_events(const std::string& topic);
// The same from any cluster, handing each record to `on_record` as
// librdkafka gives it (timestamps, null keys and values included).
void read_topic(const std::string& brokers, const std::string& topic,
                const std::function<void(const rd_kafka_message_t&)>& on_record);

// One Redis command against the test Redis, returning a flat string result.
std::vector<std::string> redis_command(const std::vector<std::string>& args);
// Deletes every key starting with `prefix`.
void redis_wipe(const std::string& prefix);

}  // namespace petstore::testing
