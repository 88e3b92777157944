#pragma once

#include <string>

#include "apikeys/key_registry.h"
#include "apikeys/key_store.h"
#include "apikeys/writer.h"
#include "es/catch_up.h"
#include "es/key_space.h"
#include "kafka/producer.h"
#include "redis/multiplexer.h"
#include "redis/pool.h"

namespace petstore::testing {

// Key management as a service wires it (service::Platform), on the test
// run's broker and Redis: a keys topic of the test's own with its single
// writer (started, and owning the topic's partition), and the key registry
// under `prefix`. Commands apply their own events; nothing projects the
// topic, so what a test reads is what the write path applied.
struct KeyManagement {
  KeyManagement(redis::Pool& pool, redis::Multiplexer& reads, const std::string& prefix);

  std::string topic;
  es::KeySpace space;
  kafka::Producer producer;
  es::CatchUp catch_up;
  apikeys::KeyWriter writer;
  apikeys::KeyRegistry registry;
  apikeys::KeyStore::OwnEvents own;
  apikeys::KeyStore store;
};

}  // namespace petstore::testing
