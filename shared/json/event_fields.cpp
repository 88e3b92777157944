#include "json/event_fields.h"

#include <stdexcept>

#include "json/parse.h"

namespace petstore::json {

EventFields::EventFields(std::string_view data) : doc_(std::in_place), object_(&*doc_) {
  if (parse(data, *doc_) || !doc_->IsObject()) {
    throw std::invalid_argument("event data is not a JSON object");
  }
}

EventFields::EventFields(const rapidjson::Value& parsed) : object_(&parsed) {
  if (!parsed.IsObject()) {
    throw std::invalid_argument("event data is not a JSON object");
  }
}

std::int64_t EventFields::integer(const char* name) const {
  const auto it = object_->FindMember(name);
  if (it == object_->MemberEnd() || !it->value.IsInt64()) {
    throw std::invalid_argument(std::string("event field ") + name + " must be an integer");
  }
  const auto v = it->value.GetInt64();
  if (v > kMaxExactInteger || v < -kMaxExactInteger) {
    throw std::invalid_argument(std::string("event field ") + name + " is beyond +-(2^53 - 1)");
  }
  return v;
}

std::optional<std::int64_t> EventFields::optional_integer(const char* name) const {
  const auto it = object_->FindMember(name);
  if (it == object_->MemberEnd() || it->value.IsNull()) {
    return std::nullopt;
  }
  return integer(name);
}

std::string EventFields::text(const char* name) const {
  const auto it = object_->FindMember(name);
  if (it == object_->MemberEnd() || !it->value.IsString()) {
    throw std::invalid_argument(std::string("event field ") + name + " must be a string");
  }
  return {it->value.GetString(), it->value.GetStringLength()};
}

std::optional<std::string> EventFields::optional_text(const char* name) const {
  const auto it = object_->FindMember(name);
  if (it == object_->MemberEnd() || it->value.IsNull()) {
    return std::nullopt;
  }
  return text(name);
}

}  // namespace petstore::json
