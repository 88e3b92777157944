#pragma once

#include <optional>
#include <stdexcept>
#include <string_view>

#include "events/envelope.h"
#include "events/kafka_binding.h"
#include "kafka/consumer.h"
#include "log/log.h"

namespace petstore::projection {

// Reads another service's event with `read` (envelope -> optional fact). A
// record that is not a valid event is logged and read as nullopt: retrying
// cannot make it valid, and it must not stall the saga behind it.
template <typename Read>
auto read_upstream(const kafka::Message& m, std::string_view reader, Read read)
    -> decltype(read(events::Envelope{})) {
  try {
    return read(events::from_message(m));
  } catch (const std::invalid_argument& e) {
    log::error("{}: ignoring {}@{}:{}: {}", reader, m.topic, m.partition, m.offset, e.what());
    return std::nullopt;
  }
}

// The same without the log line: for a look at an event before handling it
// (Reaction::affinity), which reports nothing itself.
template <typename Read>
auto peek_upstream(const kafka::Message& m, Read read) -> decltype(read(events::Envelope{})) {
  try {
    return read(events::from_message(m));
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

}  // namespace petstore::projection
