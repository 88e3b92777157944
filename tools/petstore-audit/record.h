#pragma once

#include <map>
#include <optional>
#include <string>

#include "audit_event.h"
#include "data_schema.h"
#include "kafka/consumer.h"

namespace petstore::audit {

// The topic of each aggregate kind (KAFKA_TOPIC_* as the services read
// them, or the audit's flags) and its partition count.
struct Topics {
  std::map<Kind, std::string> names = defaults();
  std::map<std::string, int, std::less<>> partitions;  // filled from the broker

  [[nodiscard]] std::optional<Kind> kind_of(std::string_view topic) const;

 private:
  static std::map<Kind, std::string> defaults() {
    std::map<Kind, std::string> out;
    for (const auto& k : kinds()) {
      out.emplace(k.kind, k.topic);
    }
    return out;
  }
};

// Checks that one record is an event of the contract (docs/events.md):
// - the CloudEvents binary-mode headers: each present exactly once,
//   ce_specversion 1.0, ce_id a UUID, ce_type known and of the topic's
//   kind, ce_source the kind's service, ce_subject the record key (a
//   positive decimal id), ce_sequence 19 digits from 1, ce_time RFC 3339,
//   ce_schemaversion a version the contract has, content-type
//   application/json, ce_dataschema (when present) naming that schema;
// - the partition is murmur2(key) modulo the topic's partition count;
// - the data is JSON that validates against its schema, and names the
//   subject (id, or petId for a stock ledger, keyId for an API key).
// An API key event's ce_subject is the key's id (16 lowercase hex digits)
// and its ce_source any of the three services (each serves the admin API).
// Returns the event, or nullopt after adding what is wrong to `out`. The
// data is parsed into `data`, and the event's `parsed` points there.
// An API key's id as the int64 AuditEvent::subject holds (its 64 bits),
// and a subject as its events spell it (decimal, or a key's 16 hex digits).
std::int64_t key_subject(std::string_view id);
std::string subject_text(Kind kind, std::int64_t subject);

std::optional<AuditEvent> check_record(const kafka::Message& m, std::int64_t timestamp_ms,
                                       const Topics& topics, const SchemaRegistry& schemas, Findings& out,
                                       rapidjson::Document& data);

}  // namespace petstore::audit
