#pragma once

#include <string>
#include <string_view>

namespace petstore::events {

// ce_dataschema: the schema file of an event's data at its schema version,
// relative to the repository: "schemas/events/pet.created.json" for version
// 1, "schemas/events/pet.created.v2.json" for version 2 (docs/events.md).
// Header-only and free of Kafka, so the audit tool's fuzz target can use it.
inline std::string dataschema_for(std::string_view type, int schema_version) {
  constexpr std::string_view prefix = "io.petstore.";
  const auto name = type.substr(type.starts_with(prefix) ? prefix.size() : 0);
  return "schemas/events/" + std::string(name) +
         (schema_version == 1 ? "" : ".v" + std::to_string(schema_version)) + ".json";
}

}  // namespace petstore::events
