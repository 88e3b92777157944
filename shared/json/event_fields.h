#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

namespace petstore::json {

// 2^53 - 1: the largest integer a double (a JSON number in JavaScript, a
// Lua number) holds exactly, and the largest id the id generator makes.
inline constexpr std::int64_t kMaxExactInteger = (std::int64_t{1} << 53) - 1;

// Reads an event payload (data of a CloudEvent) that a service wrote or
// consumes. Unlike ObjectReader (client input, HTTP errors), a bad field here
// is a bad record: std::invalid_argument, which projections log and skip.
// Unknown members are ignored so producers may add fields (docs/events.md).
// An integer must be exact as a JSON number in every reader, within
// +-kMaxExactInteger: JavaScript consumers (and any reader that holds
// numbers as doubles) hold those exactly, and every id, version, quantity
// and limit the services write is one of them.
class EventFields {
 public:
  explicit EventFields(std::string_view data);
  // Over data already parsed (by json::parse), which must outlive this; so a
  // reader that has parsed a record once, to validate it, need not parse it
  // again to decode it.
  explicit EventFields(const rapidjson::Value& parsed);
  EventFields(const EventFields&) = delete;
  EventFields& operator=(const EventFields&) = delete;

  [[nodiscard]] std::int64_t integer(const char* name) const;
  [[nodiscard]] std::optional<std::int64_t> optional_integer(const char* name) const;
  [[nodiscard]] std::string text(const char* name) const;
  [[nodiscard]] std::optional<std::string> optional_text(const char* name) const;
  // Hands each element of array member `name`, an object, to `each` as
  // EventFields; std::invalid_argument when it is no array of objects.
  template <typename Each>
  void each_object(const char* name, Each&& each) const {
    const auto it = object_->FindMember(name);
    if (it == object_->MemberEnd() || !it->value.IsArray()) {
      throw std::invalid_argument(std::string("event field ") + name + " must be an array");
    }
    for (const auto& element : it->value.GetArray()) {
      const EventFields fields(element);
      each(fields);
    }
  }
  // One of the given enumeration values, or std::invalid_argument.
  template <typename Parse>
  auto enumeration(const char* name, Parse parse) const {
    const auto value = parse(text(name));
    if (!value) {
      throw std::invalid_argument(std::string("event field ") + name + " has an unknown value");
    }
    return *value;
  }

 private:
  std::optional<rapidjson::Document> doc_;  // what the first constructor parsed
  const rapidjson::Value* object_;
};

}  // namespace petstore::json
