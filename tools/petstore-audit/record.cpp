#include "record.h"

#include <charconv>

#include "json/parse.h"
#include "text/datetime.h"
#include "text/utf8.h"

namespace petstore::audit {

const char* to_string(Kind k) {
  switch (k) {
    case Kind::Pets:
      return "pet";
    case Kind::Categories:
      return "category";
    case Kind::Orders:
      return "order";
    case Kind::Inventory:
      return "inventory";
  }
  return "?";
}

std::optional<Kind> Topics::kind_of(std::string_view topic) const {
  for (const auto& [kind, name] : names) {
    if (name == topic) {
      return kind;
    }
  }
  return std::nullopt;
}

std::string dataschema_for(std::string_view type, int version) {
  constexpr std::string_view prefix = "io.petstore.";
  const auto name = type.substr(type.starts_with(prefix) ? prefix.size() : 0);
  return "schemas/events/" + std::string(name) + (version == 1 ? "" : ".v" + std::to_string(version)) + ".json";
}

namespace {

const char* source_of(Kind k) {
  switch (k) {
    case Kind::Orders:
      return "/petstore/orders";
    case Kind::Inventory:
      return "/petstore/inventory";
    default:
      return "/petstore/pets";
  }
}

bool is_uuid(std::string_view s) {
  if (s.size() != 36) {
    return false;
  }
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
      return false;
    }
  }
  return true;
}

std::optional<std::int64_t> positive_decimal(std::string_view s, size_t max_digits) {
  if (s.empty() || s.size() > max_digits) {
    return std::nullopt;
  }
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 1) {
    return std::nullopt;
  }
  return v;
}

}  // namespace

std::optional<AuditEvent> check_record(const kafka::Message& m, std::int64_t timestamp_ms, const Topics& topics,
                                       const SchemaRegistry& schemas, Findings& out) {
  AuditEvent e;
  e.at = {m.topic, m.partition, m.offset};
  e.timestamp_ms = timestamp_ms;
  const auto size_before = out.size();
  const auto bad = [&](std::string rule, std::string detail) {
    out.push_back({e.at, e.id, e.subject, std::move(rule), text::to_valid_utf8(detail)});
  };
  const auto kind = topics.kind_of(m.topic);
  if (!kind) {
    bad("unknown_topic", "not a topic of the contract");
    return std::nullopt;
  }
  e.kind = *kind;

  std::map<std::string_view, std::string_view> h;
  for (const auto& header : m.headers) {
    if (!h.emplace(header.name, header.value).second) {
      bad("bad_header", "header " + header.name + " appears more than once");
    }
  }
  const auto get = [&](std::string_view name) -> std::optional<std::string_view> {
    const auto it = h.find(name);
    if (it == h.end()) {
      bad("bad_header", "header " + std::string(name) + " is missing");
      return std::nullopt;
    }
    return it->second;
  };
  if (const auto v = get("ce_id")) {
    e.id = std::string(*v);
    if (!is_uuid(*v)) {
      bad("bad_header", "ce_id is not a UUID");
    }
  }
  if (const auto v = get("ce_specversion"); v && *v != "1.0") {
    bad("bad_header", "ce_specversion is not 1.0");
  }
  if (const auto v = get("content-type"); v && *v != "application/json") {
    bad("bad_header", "content-type is not application/json");
  }
  if (const auto v = get("ce_source"); v && *v != source_of(*kind)) {
    bad("bad_header", "ce_source is not " + std::string(source_of(*kind)));
  }
  if (const auto v = get("ce_subject")) {
    if (const auto id = positive_decimal(*v, 19)) {
      e.subject = *id;
      if (*v != m.key) {
        bad("bad_header", "ce_subject differs from the record key");
      }
    } else {
      bad("bad_header", "ce_subject is not a positive decimal id");
    }
  }
  if (const auto v = get("ce_sequence")) {
    const auto version = v->size() == 19 ? positive_decimal(*v, 19) : std::nullopt;
    if (version) {
      e.version = *version;
    } else {
      bad("bad_header", "ce_sequence is not 19 digits from 1");
    }
  }
  if (const auto v = get("ce_time")) {
    e.time = std::string(*v);
    if (!text::is_date_time(*v)) {
      bad("bad_header", "ce_time is not an RFC 3339 date-time");
    }
  }
  if (const auto v = get("ce_schemaversion")) {
    if (const auto version = positive_decimal(*v, 4)) {
      e.schema_version = static_cast<int>(*version);
    } else {
      bad("bad_header", "ce_schemaversion is not a positive integer");
    }
  }
  if (const auto v = get("ce_type")) {
    e.type = std::string(*v);
    const std::string family = std::string("io.petstore.") + to_string(*kind) + ".";
    if (!schemas.knows_type(*v)) {
      bad("unknown_type", "ce_type " + e.type + " is not in the contract");
    } else if (!e.type.starts_with(family)) {
      bad("wrong_topic", "ce_type " + e.type + " does not belong on this topic");
    } else if (schemas.find(e.type, e.schema_version) == nullptr) {
      bad("unknown_schema", "no schema version " + std::to_string(e.schema_version) + " for " + e.type);
    }
  }
  if (const auto it = h.find("ce_dataschema"); it != h.end() && it->second != dataschema_for(e.type, e.schema_version)) {
    bad("bad_header", "ce_dataschema does not name the schema of this type and version");
  }
  if (const auto p = topics.partitions.find(m.topic); p != topics.partitions.end() && !m.key.empty()) {
    const auto expected = rd_kafka_msg_partitioner_murmur2(nullptr, m.key.data(), m.key.size(), p->second,
                                                           nullptr, nullptr);
    if (expected != m.partition) {
      bad("wrong_partition", "key " + m.key + " belongs in partition " + std::to_string(expected));
    }
  }
  if (out.size() != size_before) {
    return std::nullopt;
  }

  rapidjson::Document doc;
  if (const auto failure = json::parse(m.value, doc)) {
    bad("bad_data", "data is not JSON: " + failure->message);
    return std::nullopt;
  }
  if (const auto problem = schemas.find(e.type, e.schema_version)->validate(doc)) {
    bad("bad_data", "data " + *problem);
    return std::nullopt;
  }
  const char* id_member = *kind == Kind::Inventory ? "petId" : "id";
  if (!doc.IsObject() || !doc.HasMember(id_member) || !doc[id_member].IsInt64() ||
      doc[id_member].GetInt64() != e.subject) {
    bad("bad_data", std::string("data.") + id_member + " is not the subject");
    return std::nullopt;
  }
  e.data = m.value;
  return e;
}

}  // namespace petstore::audit
