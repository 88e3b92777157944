#pragma once

#include <cstdint>
#include <string>

#include "events/envelope.h"
#include "kafka/producer.h"
#include "trace/context.h"

namespace petstore::es {

// What makes an event decided again the same event: its ce_id and ce_time.
// Empty: a fresh id, and the time it is sent.
struct Identity {
  std::string id;
  std::string time;
};

struct NewEvent {
  std::string topic;
  std::string type;
  std::string subject;  // the aggregate's id as ce_subject and record key (events::Envelope)
  std::int64_t version = 0;
  std::string data;
  int schema_version = 1;
  // The trace of the work that appends it; empty: the thread's
  // (trace::current()), if any.
  trace::Context trace{};
  Identity identity{};
};

struct Appended {
  std::string topic;
  events::Envelope envelope;
  kafka::Position position;
};

// The envelope of a new event: its identity (a fresh ce_id and the time now,
// unless NewEvent::identity names them), and its trace (NewEvent::trace).
events::Envelope new_envelope(const NewEvent& event, const std::string& source);

// The write side's only door to Kafka: wraps an event in its CloudEvents
// envelope and appends it; returns once the log has it (acks=all).
class EventLog {
 public:
  EventLog(kafka::Producer& producer, std::string source) : producer_(producer), source_(std::move(source)) {}

  Appended append(const NewEvent& event);

  [[nodiscard]] std::int32_t partition_of(const std::string& topic, const std::string& subject) {
    return producer_.partition_for(topic, subject);
  }
  [[nodiscard]] std::int32_t partition_of(const std::string& topic, std::int64_t aggregate_id) {
    return partition_of(topic, std::to_string(aggregate_id));
  }

 private:
  kafka::Producer& producer_;
  std::string source_;
};

}  // namespace petstore::es
