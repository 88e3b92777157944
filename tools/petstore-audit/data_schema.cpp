#include "data_schema.h"

#include <charconv>
#include <stdexcept>

#include "json/parse.h"
#include "text/datetime.h"
#include "text/utf8.h"

namespace petstore::audit {

struct DataSchema::Node {
  std::set<std::string, std::less<>> types;  // empty: any
  std::map<std::string, Node, std::less<>> properties;
  std::vector<std::string> required;
  bool additional_properties = true;
  std::vector<std::string> enumeration;
  std::optional<std::int64_t> minimum;
  std::optional<std::int64_t> maximum;
  std::optional<std::int64_t> min_length;
  std::optional<std::int64_t> max_length;
  enum class Format { None, DateTime, Uuid, Decimal, Sequence };
  Format format = Format::None;
};

namespace {

using Node = DataSchema::Node;

// 8-4-4-4-12 hexadecimal digits.
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

[[noreturn]] void refuse(const std::string& where, const std::string& why) {
  throw std::invalid_argument("schema" + where + ": " + why);
}

std::int64_t integer_keyword(const rapidjson::Value& v, const std::string& where, const char* name) {
  if (!v.IsInt64()) {
    refuse(where, std::string(name) + " must be an integer");
  }
  return v.GetInt64();
}

Node compile_node(const rapidjson::Value& v, const std::string& where) {
  if (!v.IsObject()) {
    refuse(where, "a schema must be an object");
  }
  Node n;
  for (const auto& m : v.GetObject()) {
    const std::string_view key(m.name.GetString(), m.name.GetStringLength());
    const auto& value = m.value;
    if (key == "$schema" || key == "title" || key == "description") {
      continue;
    }
    if (key == "type") {
      if (value.IsString()) {
        n.types.emplace(value.GetString());
      } else if (value.IsArray()) {
        for (const auto& t : value.GetArray()) {
          if (!t.IsString()) {
            refuse(where, "type must name types");
          }
          n.types.emplace(t.GetString());
        }
      } else {
        refuse(where, "type must name types");
      }
      for (const auto& t : n.types) {
        static const std::set<std::string, std::less<>> known{"object",  "integer", "number", "string",
                                                              "boolean", "array",   "null"};
        if (!known.contains(t)) {
          refuse(where, "unknown type " + t);
        }
      }
    } else if (key == "properties") {
      if (!value.IsObject()) {
        refuse(where, "properties must be an object");
      }
      for (const auto& p : value.GetObject()) {
        const std::string name(p.name.GetString(), p.name.GetStringLength());
        std::string path = where;
        path.append("/").append(name);
        n.properties.emplace(name, compile_node(p.value, path));
      }
    } else if (key == "required") {
      if (!value.IsArray()) {
        refuse(where, "required must be an array");
      }
      for (const auto& r : value.GetArray()) {
        if (!r.IsString()) {
          refuse(where, "required must list names");
        }
        n.required.emplace_back(r.GetString(), r.GetStringLength());
      }
    } else if (key == "additionalProperties") {
      if (!value.IsBool()) {
        refuse(where, "additionalProperties must be a boolean here");
      }
      n.additional_properties = value.GetBool();
    } else if (key == "enum") {
      if (!value.IsArray()) {
        refuse(where, "enum must be an array");
      }
      for (const auto& e : value.GetArray()) {
        if (!e.IsString()) {
          refuse(where, "enum must list strings here");
        }
        n.enumeration.emplace_back(e.GetString(), e.GetStringLength());
      }
    } else if (key == "minimum") {
      n.minimum = integer_keyword(value, where, "minimum");
    } else if (key == "maximum") {
      n.maximum = integer_keyword(value, where, "maximum");
    } else if (key == "minLength") {
      n.min_length = integer_keyword(value, where, "minLength");
    } else if (key == "maxLength") {
      n.max_length = integer_keyword(value, where, "maxLength");
    } else if (key == "format") {
      const std::string_view f = value.IsString() ? value.GetString() : "";
      if (f == "date-time") {
        n.format = Node::Format::DateTime;
      } else if (f == "uuid") {
        n.format = Node::Format::Uuid;
      } else if (f == "decimal") {
        n.format = Node::Format::Decimal;
      } else if (f == "sequence") {
        n.format = Node::Format::Sequence;
      } else {
        refuse(where, "formats known: date-time, uuid, decimal, sequence");
      }
    } else {
      refuse(where, "keyword " + std::string(key) + " is outside the subset this validator checks");
    }
  }
  return n;
}

// Digits only, no sign, no leading zero: what a decimal id looks like.
bool is_decimal(std::string_view s) {
  if (s.empty() || s.size() > 16 || s[0] == '0') {
    return false;
  }
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && v >= 1 && v < (std::int64_t{1} << 53);
}

std::optional<std::string> check_format(Node::Format f, std::string_view s) {
  switch (f) {
    case Node::Format::DateTime:
      return text::is_date_time(s) ? std::nullopt
                                   : std::optional<std::string>("is not an RFC 3339 date-time");
    case Node::Format::Uuid:
      return is_uuid(s) ? std::nullopt : std::optional<std::string>("is not a UUID");
    case Node::Format::Decimal:
      return is_decimal(s) ? std::nullopt
                           : std::optional<std::string>("is not a positive decimal below 2^53");
    case Node::Format::Sequence:
      return s.size() == 19 && s.find_first_not_of("0123456789") == std::string_view::npos &&
                     s.find_first_not_of('0') != std::string_view::npos
                 ? std::nullopt
                 : std::optional<std::string>("is not a version of 19 digits from 1");
    case Node::Format::None:
      break;
  }
  return std::nullopt;
}

bool has_type(const rapidjson::Value& v, std::string_view type) {
  if (type == "object") {
    return v.IsObject();
  }
  if (type == "integer") {
    return v.IsInt64() || v.IsUint64();
  }
  if (type == "number") {
    return v.IsNumber();
  }
  if (type == "string") {
    return v.IsString();
  }
  if (type == "boolean") {
    return v.IsBool();
  }
  if (type == "array") {
    return v.IsArray();
  }
  return v.IsNull();
}

// A member name that appears twice. Objects in events are small, so a
// linear scan; a large one (hostile) gets a set.
std::optional<std::string_view> repeated_member(const rapidjson::Value& object) {
  const auto name = [](const auto& m) {
    return std::string_view(m.name.GetString(), m.name.GetStringLength());
  };
  const auto members = object.GetObject();
  if (members.MemberCount() <= 16) {
    for (auto a = members.begin(); a != members.end(); ++a) {
      for (auto b = members.begin(); b != a; ++b) {
        if (name(*a) == name(*b)) {
          return name(*a);
        }
      }
    }
    return std::nullopt;
  }
  std::set<std::string_view> seen;
  for (const auto& m : members) {
    if (!seen.insert(name(m)).second) {
      return name(m);
    }
  }
  return std::nullopt;
}

std::optional<std::string> check(const Node& n, const rapidjson::Value& v, const std::string& pointer) {
  const auto at = [&](const std::string& why) { return (pointer.empty() ? "/" : pointer) + ": " + why; };
  if (!n.types.empty()) {
    bool ok = false;
    for (const auto& t : n.types) {
      ok = ok || has_type(v, t);
    }
    if (!ok) {
      return at("is not of type " + *n.types.begin());
    }
  }
  if (v.IsObject()) {
    for (const auto& r : n.required) {
      if (!v.HasMember(r.c_str())) {
        return at("lacks the required member " + r);
      }
    }
    if (const auto twice = repeated_member(v)) {
      return at("has the member " + text::to_valid_utf8(*twice) + " more than once");
    }
    for (const auto& m : v.GetObject()) {
      const std::string_view name(m.name.GetString(), m.name.GetStringLength());
      const auto child = n.properties.find(name);
      if (child == n.properties.end()) {
        if (!n.additional_properties) {
          return at("has a member the schema does not allow: " + text::to_valid_utf8(name));
        }
        continue;
      }
      if (auto problem = check(child->second, m.value, pointer + "/" + child->first)) {
        return problem;
      }
    }
  }
  if (v.IsInt64() || v.IsUint64()) {
    // A Uint64 above int64's range is above every maximum we publish.
    if (v.IsUint64() && !v.IsInt64()) {
      if (n.maximum) {
        return at("is above the maximum");
      }
    } else {
      const auto x = v.GetInt64();
      if (n.minimum && x < *n.minimum) {
        return at("is below the minimum " + std::to_string(*n.minimum));
      }
      if (n.maximum && x > *n.maximum) {
        return at("is above the maximum " + std::to_string(*n.maximum));
      }
    }
  }
  if (v.IsString()) {
    const std::string_view s(v.GetString(), v.GetStringLength());
    const auto length = static_cast<std::int64_t>(text::code_points(s));
    if (n.min_length && length < *n.min_length) {
      return at("is shorter than " + std::to_string(*n.min_length) + " characters");
    }
    if (n.max_length && length > *n.max_length) {
      return at("is longer than " + std::to_string(*n.max_length) + " characters");
    }
    if (!n.enumeration.empty()) {
      bool listed = false;
      for (const auto& e : n.enumeration) {
        listed = listed || e == s;
      }
      if (!listed) {
        return at("is not one of the listed values");
      }
    }
    if (const auto problem = check_format(n.format, s)) {
      return at(*problem);
    }
  } else if (!n.enumeration.empty()) {
    return at("is not one of the listed values");
  }
  return std::nullopt;
}

}  // namespace

DataSchema DataSchema::compile(std::string_view schema_text) {
  rapidjson::Document doc;
  if (const auto failure = json::parse(schema_text, doc)) {
    throw std::invalid_argument("schema is not JSON: " + failure->message);
  }
  DataSchema s;
  s.root_ = std::make_shared<const Node>(compile_node(doc, ""));
  return s;
}

std::optional<std::string> DataSchema::validate(const rapidjson::Value& value) const {
  return check(*root_, value, "");
}

SchemaRegistry::SchemaRegistry() {
  for (const auto& [name, text] : embedded_schemas()) {
    // <kind>.<event>[.v<N>]: version 1 has no suffix.
    std::string base(name);
    int version = 1;
    if (const auto dot = base.rfind(".v"); dot != std::string::npos && dot + 2 < base.size()) {
      const auto digits = std::string_view(base).substr(dot + 2);
      int v = 0;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      if (ec == std::errc() && end == digits.data() + digits.size()) {
        version = v;
        base.resize(dot);
      }
    }
    schemas_["io.petstore." + base].emplace(version, DataSchema::compile(text));
  }
}

const DataSchema& headers_schema() {
  static const DataSchema schema = DataSchema::compile(headers_schema_text());
  return schema;
}

const SchemaRegistry& SchemaRegistry::contract() {
  static const SchemaRegistry registry;
  return registry;
}

const DataSchema* SchemaRegistry::find(std::string_view type, int version) const {
  const auto it = schemas_.find(type);
  if (it == schemas_.end()) {
    return nullptr;
  }
  const auto v = it->second.find(version);
  return v == it->second.end() ? nullptr : &v->second;
}

bool SchemaRegistry::knows_type(std::string_view type) const {
  return schemas_.find(type) != schemas_.end();
}

}  // namespace petstore::audit
