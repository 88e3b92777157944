#pragma once

#include <string>

#include "apikeys/key_registry.h"
#include "apikeys/key_store.h"
#include "es/aggregate_lock.h"
#include "es/catch_up.h"
#include "es/command_path.h"
#include "es/event_log.h"
#include "es/key_space.h"
#include "kafka/producer.h"
#include "redis/multiplexer.h"
#include "redis/pool.h"

namespace petstore::testing {

// Key management as a service wires it (service::Platform), on the test
// run's broker and Redis: a keys topic of the test's own, the real producer
// and command path, and the key registry under `prefix`. Commands apply
// their own events; nothing projects the topic, so what a test reads is
// what the write path applied.
struct KeyManagement {
  KeyManagement(redis::Pool& pool, redis::Multiplexer& reads, const std::string& prefix);

  std::string topic;
  es::KeySpace space;
  kafka::Producer producer;
  es::EventLog log;
  es::AggregateLock locks;
  es::CatchUp catch_up;
  es::CommandPath path;
  apikeys::KeyRegistry registry;
  apikeys::KeyStore store;
};

}  // namespace petstore::testing
