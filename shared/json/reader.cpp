#include "json/reader.h"

#include <cmath>

#include "error/codes.h"
#include "json/parse.h"

namespace petstore::json {
namespace {

[[noreturn]] void fail(const char* code, const std::string& message) {
  throw Invalid(code, message);
}

}  // namespace

rapidjson::Document parse_object(std::string_view body) {
  rapidjson::Document doc;
  if (const auto failure = parse(body, doc)) {
    fail(codes::kMalformedJson, "request body is not valid JSON: " + failure->message + " at byte " +
                                    std::to_string(failure->offset));
  }
  if (!doc.IsObject()) {
    fail(codes::kMalformedJson, "request body must be a JSON object");
  }
  return doc;
}

ObjectReader::ObjectReader(const rapidjson::Value& object) : object_(object) {
  std::set<std::string_view> names;
  for (const auto& m : object_.GetObject()) {
    const std::string_view name(m.name.GetString(), m.name.GetStringLength());
    if (!names.insert(name).second) {
      fail(codes::kInvalidValue, "field '" + std::string(name) + "' appears more than once");
    }
  }
}

bool ObjectReader::has(const char* name) const {
  const auto it = object_.FindMember(name);
  return it != object_.MemberEnd() && !it->value.IsNull();
}

const rapidjson::Value* ObjectReader::member(const char* name) {
  seen_.emplace(name);
  const auto it = object_.FindMember(name);
  if (it == object_.MemberEnd() || it->value.IsNull()) {
    return nullptr;
  }
  return &it->value;
}

std::optional<std::string> ObjectReader::optional_string(const char* name) {
  const auto* v = member(name);
  if (v == nullptr) {
    return std::nullopt;
  }
  if (!v->IsString()) {
    fail(codes::kInvalidType, std::string("field '") + name + "' must be a string");
  }
  return std::string(v->GetString(), v->GetStringLength());
}

std::string ObjectReader::required_string(const char* name) {
  auto v = optional_string(name);
  if (!v) {
    fail(codes::kMissingField, std::string("field '") + name + "' is required");
  }
  return *std::move(v);
}

std::optional<std::int64_t> ObjectReader::optional_int64(const char* name) {
  const auto* v = member(name);
  if (v == nullptr) {
    return std::nullopt;
  }
  // RapidJSON reads integer literals beyond uint64 as doubles; a whole number
  // that large is an integer out of range, not a wrong type.
  const bool huge_whole =
      v->IsDouble() && std::abs(v->GetDouble()) >= 9.2e18 && std::floor(v->GetDouble()) == v->GetDouble();
  if (!v->IsNumber() || (v->IsDouble() && !huge_whole)) {
    fail(codes::kInvalidType, std::string("field '") + name + "' must be an integer");
  }
  if (!v->IsInt64()) {
    fail(codes::kInvalidValue, std::string("field '") + name + "' is out of the int64 range");
  }
  return v->GetInt64();
}

std::int64_t ObjectReader::required_int64(const char* name) {
  const auto v = optional_int64(name);
  if (!v) {
    fail(codes::kMissingField, std::string("field '") + name + "' is required");
  }
  return *v;
}

std::optional<bool> ObjectReader::optional_bool(const char* name) {
  const auto* v = member(name);
  if (v == nullptr) {
    return std::nullopt;
  }
  if (!v->IsBool()) {
    fail(codes::kInvalidType, std::string("field '") + name + "' must be true or false");
  }
  return v->GetBool();
}

const rapidjson::Value* ObjectReader::optional_object(const char* name) {
  const auto* v = member(name);
  if (v != nullptr && !v->IsObject()) {
    fail(codes::kInvalidType, std::string("field '") + name + "' must be an object");
  }
  return v;
}

void ObjectReader::reject_unknown() const {
  for (const auto& m : object_.GetObject()) {
    const std::string_view name(m.name.GetString(), m.name.GetStringLength());
    if (!seen_.contains(name)) {
      fail(codes::kUnknownField, "field '" + std::string(name) + "' is not part of this request");
    }
  }
}

}  // namespace petstore::json
