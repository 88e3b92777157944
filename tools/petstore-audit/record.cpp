#include "record.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "apikeys/api_key.h"
#include "events/dataschema.h"
#include "json/parse.h"
#include "text/utf8.h"

namespace petstore::audit {

std::optional<Kind> Topics::kind_of(std::string_view topic) const {
  for (const auto& [kind, name] : names) {
    if (name == topic) {
      return kind;
    }
  }
  return std::nullopt;
}

namespace {

// "io.petstore.<kind>.": the types of one kind's topic.
bool in_family(std::string_view type, Kind kind) {
  constexpr std::string_view prefix = "io.petstore.";
  if (!type.starts_with(prefix)) {
    return false;
  }
  type.remove_prefix(prefix.size());
  const std::string_view name = to_string(kind);
  return type.starts_with(name) && type.size() > name.size() && type[name.size()] == '.';
}

std::int64_t decimal(std::string_view s) {
  std::int64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

// Digits only, no sign, no leading zero, below 2^53: an id of the store.
bool is_store_id(std::string_view s) {
  return !s.empty() && s.size() <= 16 && s[0] != '0' &&
         s.find_first_not_of("0123456789") == std::string_view::npos && decimal(s) < (std::int64_t{1} << 53);
}

bool is_service_source(std::string_view s) {
  return std::ranges::any_of(kinds(), [&](const KindInfo& k) { return !k.source.empty() && k.source == s; });
}

// Whether the data's `member` is the subject: an API key's id as text
// (`text`), or a decimal id (`id`).
bool names_subject(const rapidjson::Value& data, const std::string& member, bool key, std::string_view text,
                   std::int64_t id) {
  if (!data.IsObject() || !data.HasMember(member.c_str())) {
    return false;
  }
  const auto& v = data[member.c_str()];
  if (key) {
    return v.IsString() && std::string_view(v.GetString(), v.GetStringLength()) == text;
  }
  return v.IsInt64() && v.GetInt64() == id;
}

}  // namespace

std::int64_t key_subject(std::string_view id) {
  return apikeys::id_bits(id);
}

std::string subject_text(Kind kind, std::int64_t subject) {
  return info(kind).subject == SubjectForm::KeyId ? apikeys::id_text(subject) : std::to_string(subject);
}

std::optional<AuditEvent> check_record(const kafka::Message& m, std::int64_t timestamp_ms,
                                       const Topics& topics, const SchemaRegistry& schemas, Findings& out,
                                       rapidjson::Document& doc) {
  AuditEvent e;
  e.at = {m.topic, m.partition, m.offset};
  e.timestamp_ms = timestamp_ms;
  const auto size_before = out.size();
  const auto bad = [&](std::string rule, const std::string& detail) {
    out.push_back({e.at, e.id, e.subject, std::move(rule), text::to_valid_utf8(detail)});
  };
  const auto kind = topics.kind_of(m.topic);
  if (!kind) {
    bad("unknown_topic", "not a topic of the contract");
    return std::nullopt;
  }
  e.kind = *kind;

  // The headers as one JSON object, checked against the headers' schema. Its
  // strings are views of the record's (it lives only for this check), and its
  // members go into a buffer on the stack: no allocation per record.
  std::array<char, 2048> buffer;  // NOLINT(cppcoreguidelines-pro-type-member-init): the pool's memory
  rapidjson::MemoryPoolAllocator<> alloc(buffer.data(), buffer.size());
  rapidjson::Value headers(rapidjson::kObjectType);
  const auto h = [&m](std::string_view name) {
    for (const auto& header : m.headers) {
      if (header.name == name) {
        return std::string_view(header.value);
      }
    }
    return std::string_view();
  };
  for (size_t i = 0; i < m.headers.size(); ++i) {
    const auto& header = m.headers[i];
    bool repeated = false;
    for (size_t j = 0; j < i && !repeated; ++j) {
      repeated = m.headers[j].name == header.name;
    }
    if (repeated) {
      bad("bad_header", "header " + header.name + " appears more than once");
    } else if (!text::is_valid_utf8(header.name) || !text::is_valid_utf8(header.value)) {
      bad("bad_header", "header " + header.name + " is not UTF-8");
    } else {
      headers.AddMember(rapidjson::Value(rapidjson::StringRef(header.name.data(), header.name.size())),
                        rapidjson::Value(rapidjson::StringRef(header.value.data(), header.value.size())),
                        alloc);
    }
  }
  e.id = std::string(h("ce_id"));
  if (out.size() != size_before) {
    return std::nullopt;
  }
  if (const auto problem = headers_schema().validate(headers)) {
    bad("bad_header", "headers " + *problem);
    return std::nullopt;
  }
  // The schema has checked each value's shape; what is left relates them.
  const auto subject = h("ce_subject");
  const bool key = info(*kind).subject == SubjectForm::KeyId;
  if (key ? !apikeys::is_key_id(subject) : !is_store_id(subject)) {
    bad("bad_header", key ? "ce_subject is not an API key id (16 lowercase hex digits)"
                          : "ce_subject is not a positive decimal below 2^53");
    return std::nullopt;
  }
  e.subject = key ? key_subject(subject) : decimal(subject);
  e.version = decimal(h("ce_sequence"));
  e.time = std::string(h("ce_time"));
  e.schema_version = static_cast<int>(decimal(h("ce_schemaversion")));
  e.type = std::string(h("ce_type"));
  if (h("ce_subject") != m.key) {
    bad("bad_header", "ce_subject differs from the record key");
  }
  if (const auto source = info(*kind).source;
      source.empty() ? !is_service_source(h("ce_source")) : h("ce_source") != source) {
    bad("bad_header", source.empty() ? "ce_source is not a service of the store"
                                     : "ce_source is not " + std::string(source));
  }
  const auto* schema = schemas.find(e.type, e.schema_version);
  if (schema == nullptr && !schemas.knows_type(e.type)) {
    bad("unknown_type", "ce_type " + e.type + " is not in the contract");
  } else if (!in_family(e.type, *kind)) {
    bad("wrong_topic", "ce_type " + e.type + " does not belong on this topic");
  } else if (schema == nullptr) {
    bad("unknown_schema", "no schema version " + std::to_string(e.schema_version) + " for " + e.type);
  }
  if (const auto dataschema = h("ce_dataschema");
      !dataschema.empty() && !events::is_dataschema_of(dataschema, e.type, e.schema_version)) {
    bad("bad_header", "ce_dataschema does not name the schema of this type and version");
  }
  if (const auto p = topics.partitions.find(m.topic); p != topics.partitions.end() && !m.key.empty()) {
    const auto expected =
        rd_kafka_msg_partitioner_murmur2(nullptr, m.key.data(), m.key.size(), p->second, nullptr, nullptr);
    if (expected != m.partition) {
      bad("wrong_partition", "key " + m.key + " belongs in partition " + std::to_string(expected));
    }
  }
  if (out.size() != size_before) {
    return std::nullopt;
  }

  if (const auto failure = json::parse(m.value, doc)) {
    bad("bad_data", "data is not JSON: " + failure->message);
    return std::nullopt;
  }
  if (const auto problem = schema->validate(doc)) {
    bad("bad_data", "data " + *problem);
    return std::nullopt;
  }
  const std::string id_member(info(*kind).id_member);
  if (!names_subject(doc, id_member, key, subject, e.subject)) {
    bad("bad_data", "data." + id_member + " is not the subject");
    return std::nullopt;
  }
  e.data = m.value;
  e.parsed = &doc;
  return e;
}

}  // namespace petstore::audit
