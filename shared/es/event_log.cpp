#include "es/event_log.h"

#include "events/kafka_binding.h"

namespace petstore::es {

events::Envelope new_envelope(const NewEvent& event, const std::string& source) {
  events::Envelope e;
  e.id = event.identity.id.empty() ? events::new_event_id() : event.identity.id;
  e.type = event.type;
  e.source = source;
  e.subject = event.subject;
  e.version = event.version;
  e.time = event.identity.time.empty() ? events::format_time(std::chrono::system_clock::now())
                                       : event.identity.time;
  e.schema_version = event.schema_version;
  e.data = event.data;
  if (const auto* t = event.trace.empty() ? trace::current() : &event.trace; t != nullptr) {
    e.traceparent = t->traceparent();
    e.tracestate = t->tracestate;
  }
  return e;
}

Appended EventLog::append(const NewEvent& event) {
  auto e = new_envelope(event, source_);
  const auto position = producer_.append(events::to_record(event.topic, e));
  return {event.topic, std::move(e), position};
}

}  // namespace petstore::es
