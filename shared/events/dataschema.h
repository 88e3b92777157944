#pragma once

#include <string>
#include <string_view>

namespace petstore::events {

// ce_dataschema: the schema of an event's data at its schema version, as an
// absolute URI (CloudEvents requires one; a strict SDK refuses a relative
// reference) whose path is the schema file's in this repository:
// "https://petstore.example/schemas/events/pet.created.json" for version 1,
// ".../pet.created.v2.json" for version 2 (docs/events.md). Records written
// before carry the path alone; is_dataschema_of takes both.
// Header-only and free of Kafka, so the audit tool's fuzz target can use it.
inline constexpr std::string_view kDataschemaBase = "https://petstore.example/";

inline std::string dataschema_for(std::string_view type, int schema_version) {
  constexpr std::string_view prefix = "io.petstore.";
  const auto name = type.substr(type.starts_with(prefix) ? prefix.size() : 0);
  return std::string(kDataschemaBase) + "schemas/events/" + std::string(name) +
         (schema_version == 1 ? "" : ".v" + std::to_string(schema_version)) + ".json";
}

// Whether `dataschema` names the schema dataschema_for(type, schema_version)
// does (with or without kDataschemaBase), compared piece by piece: a reader
// checking every record builds no string for it.
inline bool is_dataschema_of(std::string_view dataschema, std::string_view type, int schema_version) {
  constexpr std::string_view prefix = "io.petstore.";
  constexpr std::string_view folder = "schemas/events/";
  constexpr std::string_view extension = ".json";
  const auto name = type.substr(type.starts_with(prefix) ? prefix.size() : 0);
  if (dataschema.starts_with(kDataschemaBase)) {
    dataschema.remove_prefix(kDataschemaBase.size());
  }
  if (!dataschema.starts_with(folder)) {
    return false;
  }
  dataschema.remove_prefix(folder.size());
  if (!dataschema.starts_with(name)) {
    return false;
  }
  dataschema.remove_prefix(name.size());
  if (schema_version != 1) {
    const auto suffix = ".v" + std::to_string(schema_version);
    if (!dataschema.starts_with(suffix)) {
      return false;
    }
    dataschema.remove_prefix(suffix.size());
  }
  return dataschema == extension;
}

}  // namespace petstore::events
