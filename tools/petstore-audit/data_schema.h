#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

namespace petstore::audit {

// The part of JSON Schema (draft 4) that schemas/events/ uses, checked by our
// own code over json::parse's document. RapidJSON's own validator needs
// RapidJSON's number parsing, which Debian's 1.1.0 gets wrong for crafted
// input (CVE-2024-38517), and a record in the log is input like any other.
//
// Keywords: type, properties, required, additionalProperties (a boolean),
// enum (of strings), minimum and maximum (integers), items (one schema),
// minItems and maxItems, minLength and maxLength (in code points), format (date-time, uuid, and the
// contract's own decimal and sequence: schemas/cloudevents-headers.json); title, description and $schema are
// notes. A schema that uses anything else is refused when it is compiled, so
// a schema can never silently mean less than it says.
class DataSchema {
 public:
  // Throws std::invalid_argument for text that is not such a schema.
  static DataSchema compile(std::string_view schema_text);

  // nullopt when `value` is valid; otherwise the first problem found, with
  // the JSON pointer of the offending member.
  [[nodiscard]] std::optional<std::string> validate(const rapidjson::Value& value) const;

  struct Node;

 private:
  std::shared_ptr<const Node> root_;
};

// Every event schema the contract publishes, by ce_type and
// ce_schemaversion, compiled once. The files are embedded at build time
// (schemas/events/<name>.json is version 1, <name>.v<N>.json version N), so
// the tool checks a log against the contract it was built with.
class SchemaRegistry {
 public:
  SchemaRegistry();
  // The embedded contract, compiled on first use and shared.
  static const SchemaRegistry& contract();

  // nullptr when the contract has no schema for that type and version.
  [[nodiscard]] const DataSchema* find(std::string_view type, int version) const;
  // Types known in any version.
  [[nodiscard]] bool knows_type(std::string_view type) const;

 private:
  std::map<std::string, std::map<int, DataSchema>, std::less<>> schemas_;  // by type, then version
};

// The schema of every record's headers (schemas/cloudevents-headers.json),
// as an object of header name to value; embedded like the event schemas.
const DataSchema& headers_schema();

// The embedded files: {file name without .json, text}.
struct EmbeddedSchema {
  std::string_view name;
  std::string_view text;
};
const std::vector<EmbeddedSchema>& embedded_schemas();
std::string_view headers_schema_text();

}  // namespace petstore::audit
