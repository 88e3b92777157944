#pragma once

#include <array>
#include <cstdint>
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

// The aggregate kinds, each with its own topic (docs/events.md). An API
// key's subject is its 16 hex digit id; AuditEvent::subject holds those 64
// bits as an int64 (key_subject), and findings name the key in their detail.
enum class Kind { Pets, Categories, Orders, Inventory, ApiKeys };

// What tells each kind's records apart, one row a kind: the tool's flags,
// its record checks and its reports read them here. A kind's rules are its
// checker's (kinds/) and its rebuild's (rebuild/).
struct KindInfo {
  Kind kind;
  std::string_view name;         // the type family io.petstore.<name>.*, and reports
  std::string_view topic;        // the default topic
  std::string_view topic_env;    // the topic's setting, as the services read it
  std::string_view topic_flag;   // the tool's flag for the topic
  std::string_view target_flag;  // the flag naming one aggregate by its decimal id; "" for none
  std::string_view source;       // ce_source; "" for any service's (the admin API is every service's)
  std::string_view id_member;    // the member of the data that names the subject
};
inline constexpr std::array<KindInfo, 5> kKinds{{
    {Kind::Pets, "pet", "petstore.pets.v1", "KAFKA_TOPIC_PETS", "--topic-pets", "--pet", "/petstore/pets",
     "id"},
    {Kind::Categories, "category", "petstore.categories.v1", "KAFKA_TOPIC_CATEGORIES", "--topic-categories",
     "--category", "/petstore/pets", "id"},
    {Kind::Orders, "order", "petstore.orders.v1", "KAFKA_TOPIC_ORDERS", "--topic-orders", "--order",
     "/petstore/orders", "id"},
    {Kind::Inventory, "inventory", "petstore.inventory.v1", "KAFKA_TOPIC_INVENTORY", "--topic-inventory",
     "--inventory", "/petstore/inventory", "petId"},
    {Kind::ApiKeys, "apikey", "petstore.apikeys.v1", "KAFKA_TOPIC_APIKEYS", "--topic-apikeys", "", "",
     "keyId"},
}};
[[nodiscard]] constexpr const KindInfo& info(Kind k) {
  return kKinds.at(static_cast<size_t>(k));
}
[[nodiscard]] inline const char* to_string(Kind k) {
  return info(k).name.data();
}

// One record that is a valid CloudEvent of the contract: what the checks
// and folds see. Data is the record value, already valid against its schema.
struct AuditEvent {
  Position at;
  Kind kind = Kind::Pets;
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
