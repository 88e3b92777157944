#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace petstore::json {

// A thin streaming writer: responses are built straight into one buffer with no
// intermediate DOM, which keeps the read path allocation-light.
class Writer {
 public:
  Writer() : writer_(buffer_) {}

  Writer& begin_object() {
    writer_.StartObject();
    return *this;
  }
  Writer& end_object() {
    writer_.EndObject();
    return *this;
  }
  Writer& begin_array() {
    writer_.StartArray();
    return *this;
  }
  Writer& end_array() {
    writer_.EndArray();
    return *this;
  }

  Writer& key(std::string_view name) {
    writer_.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
    return *this;
  }
  Writer& value(std::string_view text) {
    writer_.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    return *this;
  }
  Writer& value(const char* text) { return value(std::string_view(text)); }
  Writer& value(const std::string& text) { return value(std::string_view(text)); }
  Writer& value(std::int64_t number) {
    writer_.Int64(number);
    return *this;
  }
  Writer& value(bool flag) {
    writer_.Bool(flag);
    return *this;
  }
  Writer& null() {
    writer_.Null();
    return *this;
  }
  // Copies already-serialised JSON (a stored event payload) without re-parsing.
  Writer& raw(std::string_view json) {
    writer_.RawValue(json.data(), json.size(), rapidjson::kObjectType);
    return *this;
  }

  template <typename T>
  Writer& field(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }
  template <typename T>
  Writer& optional_field(std::string_view name, const std::optional<T>& v) {
    if (v) {
      field(name, *v);
    }
    return *this;
  }

  [[nodiscard]] std::string finish() const { return {buffer_.GetString(), buffer_.GetSize()}; }

 private:
  rapidjson::StringBuffer buffer_;
  rapidjson::Writer<rapidjson::StringBuffer> writer_;
};

}  // namespace petstore::json
