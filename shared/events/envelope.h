#pragma once

#include <charconv>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "events/dataschema.h"

namespace petstore::events {

// A CloudEvents 1.0 event in the Kafka protocol binding's binary mode: the
// attributes travel as `ce_*` headers and `data` is the record value, so a
// consumer can route on headers without parsing JSON. docs/events.md is the
// contract downstream teams read.
struct Envelope {
  std::string id;      // ce_id: UUID v4, unique per event
  std::string type;    // ce_type, e.g. io.petstore.pet.created
  std::string source;  // ce_source, e.g. /petstore/pets
  // ce_subject and the record key: the aggregate's id, in decimal for pets,
  // categories, orders and stock ledgers, 16 hex digits for an API key.
  std::string subject;
  std::int64_t version = 0;  // ce_sequence: 1, 2, 3, ... per aggregate
  std::string time;          // ce_time, RFC 3339 UTC
  int schema_version = 1;    // ce_schemaversion: version of data's schema
  std::string data;          // the JSON payload, record value
  // The CloudEvents distributed-tracing extension: the W3C trace context of
  // the work that appended the event (trace::Context), or empty.
  std::string traceparent;  // ce_traceparent
  std::string tracestate;   // ce_tracestate, only with a traceparent

  // The subject as a numeric aggregate id; throws std::invalid_argument when
  // it is not one (a decimal int64). Inline: the domains' fuzz targets
  // read it without compiling this library.
  [[nodiscard]] std::int64_t aggregate_id() const {
    std::int64_t v = 0;
    const auto* end = subject.data() + subject.size();
    const auto [ptr, ec] = std::from_chars(subject.data(), end, v);
    if (ec != std::errc{} || ptr != end) {
      throw std::invalid_argument("event has a malformed ce_subject: " + subject);
    }
    return v;
  }
};

inline constexpr const char* kSpecVersion = "1.0";
inline constexpr const char* kContentType = "application/json";

// The event in CloudEvents' structured JSON format (specversion, id, source,
// type, subject, time, datacontenttype, dataschema, the sequence and
// schemaversion extensions, traceparent and tracestate when it has them,
// then data): how the history resources serve it.
// Byte for byte the same for an envelope from either side of the log.
std::string to_structured_json(const Envelope& e);

// ce_sequence must order lexicographically (CloudEvents sequence extension), so
// versions are zero-padded to 19 digits: "0000000000000000003".
std::string format_sequence(std::int64_t version);
std::int64_t parse_sequence(const std::string& text);
// ce_schemaversion: a positive decimal; throws std::invalid_argument.
int parse_schema_version(const std::string& text);

std::string format_time(std::chrono::system_clock::time_point t);
std::string new_event_id();
// A name-based ce_id (RFC 4122 version 5, in the store's namespace): the
// same `name` gives the same id, so an event that any replica may decide
// again from the same cause is the same event each time.
std::string name_based_event_id(std::string_view name);

}  // namespace petstore::events
