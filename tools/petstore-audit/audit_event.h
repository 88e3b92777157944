#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

namespace petstore::audit {

// Where a record is in the log: what every finding names, so an auditor can
// fetch the record itself (kcat -t TOPIC -p PARTITION -o OFFSET -c 1).
struct Position {
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t offset = 0;

  [[nodiscard]] std::string str() const {
    return topic + "/" + std::to_string(partition) + "@" + std::to_string(offset);
  }
};

// An aggregate kind: its index in kinds(). Each service's audit module
// (services/<name>/audit/checks.cpp) names its own kinds, the platform's
// API keys come last, and nothing in the tool names a service.
enum class Kind : std::uint8_t {};

// How a kind's events spell their subject: a store id (a positive decimal
// below 2^53), or an API key's 16 lowercase hex digits, which
// AuditEvent::subject holds as their 64 bits (key_subject) and findings
// name in their detail.
enum class SubjectForm : std::uint8_t { StoreId, KeyId };

// Another kind's aggregate that a kind's events name: `history` of that
// aggregate shows them. `member` of the data holds its id ("a.b": member b
// of an object of the array a); "" is the event's own subject (a stock
// ledger shares its pet's id).
struct Reference {
  std::string_view kind;
  std::string_view member;
};

// What tells a kind's records apart: the tool's flags, its record checks
// and its reports read them here. A module names every member up to
// `references` (GCC warns of a designated initializer that stops short).
struct KindInfo {
  std::string_view name;         // the type family io.petstore.<name>.*, and reports
  std::string_view topic;        // the default topic: petstore.<short name>.v1
  std::string_view target_flag;  // the flag naming one aggregate by its subject; "" for none
  std::string_view source;       // ce_source; "" for any service's (the admin API is every service's)
  std::string_view id_member;    // the member of the data that names the subject
  SubjectForm subject = SubjectForm::StoreId;
  // Its version 1 creates an id of the store's own (pets, categories and
  // orders share that space; a ledger takes its pet's, a key its own).
  bool creates_id = true;
  // `history` takes its target flag (a ledger's events are its pet's).
  bool own_history = true;
  std::vector<Reference> references;
};

// A kind as kinds() holds it: its index, which module checks it, and what
// follows from its topic's short name: the topic's setting as the services
// read it (KAFKA_TOPIC_PETS) and the tool's flag for it (--topic-pets).
struct RegisteredKind : KindInfo {
  Kind kind{};
  std::size_t module = 0;
  std::string topic_env;
  std::string topic_flag;
};

// Every kind, services in the order of services/services.txt, then the
// platform's API keys (kinds.cpp).
[[nodiscard]] const std::vector<RegisteredKind>& kinds();
[[nodiscard]] inline const RegisteredKind& info(Kind k) {
  return kinds().at(static_cast<size_t>(k));
}
[[nodiscard]] inline const char* to_string(Kind k) {
  return info(k).name.data();
}
// The kind of that name ("pet", "apikey"), or nullopt.
[[nodiscard]] std::optional<Kind> kind_named(std::string_view name);

// One record that is a valid CloudEvent of the contract: what the checks
// and folds see. Data is the record value, already valid against its schema.
struct AuditEvent {
  Position at;
  Kind kind{};
  std::string id;  // ce_id
  std::string type;
  std::int64_t subject = 0;  // the aggregate id
  std::int64_t version = 0;  // ce_sequence
  std::string time;          // ce_time
  int schema_version = 1;
  std::string data;
  std::int64_t timestamp_ms = 0;  // the record's timestamp
  // `data` as check_record parsed it, while the document it was parsed into
  // lives (verify's checkers decode from it instead of parsing again);
  // nullptr for an event kept beyond that.
  const rapidjson::Value* parsed = nullptr;
};

// A broken invariant, with the record that broke it.
struct Finding {
  Position at;
  std::string event_id;
  std::int64_t subject = 0;
  std::string rule;  // a short name: sequence_gap, illegal_transition, ...
  std::string detail;
};

using Findings = std::vector<Finding>;

inline void report(Findings& out, const AuditEvent& e, std::string rule, std::string detail) {
  out.push_back({e.at, e.id, e.subject, std::move(rule), std::move(detail)});
}

}  // namespace petstore::audit
