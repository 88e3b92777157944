#include "support/key_management.h"

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

}  // namespace

KeyManagement::KeyManagement(redis::Pool& pool, redis::Multiplexer& reads, const std::string& prefix)
    : topic(new_keys_topic()),
      space(prefix, "keys-test"),
      producer(producer_settings()),
      log(producer, "/petstore/pets"),
      locks(pool, std::chrono::seconds(10), std::chrono::seconds(3)),
      catch_up(producer, Stack::get().kafka_brokers, pool, space.offsets(), std::chrono::seconds(5)),
      path(log, locks, catch_up, pool, std::chrono::seconds(10), std::chrono::seconds(5)),
      registry(apikeys::KeyModel(space, prefix)),
      store(path, registry, pool, reads, prefix, topic) {}

}  // namespace petstore::testing
