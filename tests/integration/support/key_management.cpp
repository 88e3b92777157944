#include "support/key_management.h"

#include <thread>

#include "support/stack.h"

namespace petstore::testing {
namespace {

kafka::ProducerSettings producer_settings() {
  kafka::ProducerSettings s;
  s.bootstrap_servers = Stack::get().kafka_brokers;
  s.client_id = unique_name("keys-producer");
  return s;
}

std::string new_keys_topic() {
  auto name = unique_name("apikeys");
  create_topic(name, 1);
  return name;
}

es::OwnerLog::Settings writer_settings(const std::string& topic) {
  es::OwnerLog::Settings s;
  s.brokers = Stack::get().kafka_brokers;
  s.group = unique_name("keys-writers");
  s.topic = topic;
  s.owner = "keys-test";
  s.source = "/petstore/pets";
  return s;
}

}  // namespace

KeyManagement::KeyManagement(redis::Pool& pool, redis::Multiplexer& reads, const std::string& prefix)
    : topic(new_keys_topic()),
      space(prefix, "keys-test"),
      producer(producer_settings()),
      catch_up(producer, Stack::get().kafka_brokers, pool, space.offsets(), std::chrono::seconds(5)),
      writer(producer, writer_settings(topic)),
      registry(apikeys::KeyModel(space, prefix)),
      own(pool, catch_up, registry),
      store(writer, own, registry, pool, reads, prefix, topic) {
  writer.start();
  // The lone writer takes the topic's partition once the group settles.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (writer.owned().empty() && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace petstore::testing
