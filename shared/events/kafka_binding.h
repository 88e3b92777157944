#pragma once

#include <string>

#include "events/envelope.h"
#include "kafka/consumer.h"
#include "kafka/producer.h"

// The CloudEvents Kafka protocol binding, binary mode (docs/events.md): the
// attributes as ce_* headers, data as the record value, the subject as the
// key. Apart from events/envelope.h so that the domains, which read and
// write envelopes, link nothing of Kafka.
namespace petstore::events {

kafka::Record to_record(const std::string& topic, const Envelope& e);

// Throws std::invalid_argument when a required attribute is missing or bad.
Envelope from_message(const kafka::Message& m);

}  // namespace petstore::events
