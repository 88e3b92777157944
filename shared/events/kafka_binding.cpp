#include "events/kafka_binding.h"

#include <stdexcept>

namespace petstore::events {
namespace {

const std::string& require(const kafka::Message& m, const char* name) {
  const auto* v = m.header(name);
  if (v == nullptr || v->empty()) {
    throw std::invalid_argument(std::string("event lacks header ") + name);
  }
  return *v;
}

}  // namespace

kafka::Record to_record(const std::string& topic, const Envelope& e) {
  kafka::Record r;
  r.topic = topic;
  r.key = e.subject;
  r.value = e.data;
  r.headers = {
      {"ce_specversion", kSpecVersion},
      {"ce_id", e.id},
      {"ce_type", e.type},
      {"ce_source", e.source},
      {"ce_subject", r.key},
      {"ce_time", e.time},
      {"ce_sequence", format_sequence(e.version)},
      {"ce_schemaversion", std::to_string(e.schema_version)},
      {"ce_dataschema", dataschema_for(e.type, e.schema_version)},
      {"content-type", kContentType},
  };
  if (!e.traceparent.empty()) {
    r.headers.push_back({"ce_traceparent", e.traceparent});
    if (!e.tracestate.empty()) {
      r.headers.push_back({"ce_tracestate", e.tracestate});
    }
  }
  return r;
}

Envelope from_message(const kafka::Message& m) {
  if (require(m, "ce_specversion") != kSpecVersion) {
    throw std::invalid_argument("unsupported CloudEvents specversion");
  }
  Envelope e;
  e.id = require(m, "ce_id");
  e.type = require(m, "ce_type");
  e.source = require(m, "ce_source");
  e.subject = require(m, "ce_subject");
  e.version = parse_sequence(require(m, "ce_sequence"));
  e.time = require(m, "ce_time");
  e.schema_version = parse_schema_version(require(m, "ce_schemaversion"));
  e.data = m.value;
  // Carried as they came: a reader that continues the trace checks them
  // (trace::parse) and starts its own when they are not valid.
  if (const auto* v = m.header("ce_traceparent")) {
    e.traceparent = *v;
    if (const auto* s = m.header("ce_tracestate")) {
      e.tracestate = *s;
    }
  }
  if (e.version < 1) {
    throw std::invalid_argument("event version must be at least 1");
  }
  return e;
}

}  // namespace petstore::events
