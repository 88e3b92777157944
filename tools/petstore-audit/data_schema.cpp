#include "data_schema.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>

#include "json/parse.h"
#include "text/datetime.h"
#include "text/utf8.h"
#include "trace/context.h"

namespace petstore::audit {

struct DataSchema::Node {
  std::set<std::string, std::less<>> types;  // empty: any
  unsigned type_mask = 0;                    // the same as bits of TypeBit; 0: any
  // In the schema's order, found by a linear scan: event objects have a few
  // members, each name usually of a length no other has.
  std::vector<std::string> property_names;
  std::vector<Node> properties;       // property_names[i]'s schema is properties[i]
  std::vector<std::string> required;  // each one of `property_names`
  std::uint64_t required_mask = 0;    // their indexes there
  bool additional_properties = true;
  std::vector<std::string> enumeration;
  std::optional<std::int64_t> minimum;
  std::optional<std::int64_t> maximum;
  std::optional<std::int64_t> min_length;
  std::optional<std::int64_t> max_length;
  std::vector<Node> items;  // an array's elements' schema: none, or one
  std::optional<std::int64_t> min_items;
  std::optional<std::int64_t> max_items;
  enum class Format { None, DateTime, Uuid, Decimal, Sequence, Traceparent };
  Format format = Format::None;
  // pattern: only "^[0-9a-f]{N}$" (an API key's id and digest): N lowercase hex digits.
  std::optional<std::size_t> hex_digits;
};

namespace {

using Node = DataSchema::Node;

// A value's JSON Schema type as one bit, so a node's types are tested with one AND.
enum TypeBit : unsigned {
  kObject = 1,
  kInteger = 2,
  kNumber = 4,
  kString = 8,
  kBoolean = 16,
  kArray = 32,
  kNull = 64,
};

unsigned type_bit(std::string_view type) {
  static constexpr std::pair<std::string_view, TypeBit> kTypes[] = {
      {"object", kObject},   {"integer", kInteger}, {"number", kNumber}, {"string", kString},
      {"boolean", kBoolean}, {"array", kArray},     {"null", kNull}};
  for (const auto& [name, bit] : kTypes) {
    if (name == type) {
      return bit;
    }
  }
  return 0;
}

// Every type `v` has (an integer is also a number).
unsigned types_of(const rapidjson::Value& v) {
  if (v.IsObject()) {
    return kObject;
  }
  if (v.IsInt64() || v.IsUint64()) {
    return kInteger | kNumber;
  }
  if (v.IsNumber()) {
    return kNumber;
  }
  if (v.IsString()) {
    return kString;
  }
  if (v.IsBool()) {
    return kBoolean;
  }
  return v.IsArray() ? kArray : kNull;
}

// The most properties a schema may declare: a bit each in a 64-bit mask.
constexpr size_t kMaxProperties = 64;

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
        const auto bit = type_bit(t);
        if (bit == 0) {
          refuse(where, "unknown type " + t);
        }
        n.type_mask |= bit;
      }
    } else if (key == "properties") {
      if (!value.IsObject()) {
        refuse(where, "properties must be an object");
      }
      for (const auto& p : value.GetObject()) {
        const std::string name(p.name.GetString(), p.name.GetStringLength());
        std::string path = where;
        path.append("/").append(name);
        if (std::ranges::find(n.property_names, name) != n.property_names.end()) {
          refuse(where, "property " + name + " is declared twice");
        }
        if (n.properties.size() == kMaxProperties) {
          refuse(where, "more than 64 properties is outside the subset this validator checks");
        }
        n.properties.push_back(compile_node(p.value, path));
        n.property_names.push_back(name);
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
    } else if (key == "items") {
      n.items.push_back(compile_node(value, where + "/items"));
    } else if (key == "minItems") {
      n.min_items = integer_keyword(value, where, "minItems");
    } else if (key == "maxItems") {
      n.max_items = integer_keyword(value, where, "maxItems");
    } else if (key == "minLength") {
      n.min_length = integer_keyword(value, where, "minLength");
    } else if (key == "maxLength") {
      n.max_length = integer_keyword(value, where, "maxLength");
    } else if (key == "pattern") {
      const std::string_view p = value.IsString() ? value.GetString() : "";
      constexpr std::string_view head = "^[0-9a-f]{", tail = "}$";
      std::size_t digits = 0;
      const auto* first = p.data() + std::min(p.size(), head.size());
      const auto* last = p.data() + p.size() - std::min(p.size(), tail.size());
      const auto [end, ec] = std::from_chars(first, std::max(first, last), digits);
      if (!p.starts_with(head) || !p.ends_with(tail) || ec != std::errc() || end != last || digits == 0) {
        refuse(where, "patterns known: ^[0-9a-f]{N}$");
      }
      n.hex_digits = digits;
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
      } else if (f == "traceparent") {
        n.format = Node::Format::Traceparent;
      } else {
        refuse(where, "formats known: date-time, uuid, decimal, sequence, traceparent");
      }
    } else {
      refuse(where, "keyword " + std::string(key) + " is outside the subset this validator checks");
    }
  }
  // Each required member must be declared, so one mask over the declared
  // ones tells which are present.
  for (const auto& r : n.required) {
    const auto it = std::ranges::find(n.property_names, r);
    if (it == n.property_names.end()) {
      refuse(where, "required member " + r + " is not among the properties");
    }
    n.required_mask |= std::uint64_t{1} << static_cast<unsigned>(it - n.property_names.begin());
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
    case Node::Format::Traceparent:
      return trace::parse(s) ? std::nullopt : std::optional<std::string>("is not a W3C traceparent");
    case Node::Format::None:
      break;
  }
  return std::nullopt;
}

// Where a value is: its member name and its parent's place, so the JSON
// pointer is spelled out only for a problem (valid records cost no strings).
struct Place {
  const Place* parent = nullptr;
  std::string_view name;

  [[nodiscard]] std::string pointer() const {
    if (parent == nullptr) {
      return "";
    }
    return parent->pointer() + "/" + std::string(name);
  }
};

// A problem, named with the JSON pointer of where it is.
std::string at(const Place& place, const std::string& why) {
  const auto pointer = place.pointer();
  return (pointer.empty() ? "/" : pointer) + ": " + why;
}

std::optional<std::string> check(const Node& n, const rapidjson::Value& v, const Place& place);

// An object's members against `n`, in the order of the problems reported:
// a required member missing (the first in `required`'s order), a member
// named twice, a member the schema does not allow, then each member's own
// value.
std::optional<std::string> check_object(const Node& n, const rapidjson::Value& v, const Place& place) {
  const auto members = v.GetObject();
  const auto name_of = [](const auto& m) {
    return std::string_view(m.name.GetString(), m.name.GetStringLength());
  };
  // One pass: which declared property each member is (-1: undeclared), and
  // which declared ones were seen, twice or not at all.
  constexpr int kUndeclared = -1;
  std::array<int, 32> inline_index{};
  std::vector<int> heap_index;
  int* index = inline_index.data();
  if (members.MemberCount() > inline_index.size()) {
    heap_index.resize(members.MemberCount());
    index = heap_index.data();
  }
  std::uint64_t seen = 0;
  std::optional<std::string_view> twice;
  std::vector<std::string_view> undeclared;
  size_t i = 0;
  for (const auto& m : members) {
    const auto name = name_of(m);
    index[i] = kUndeclared;
    for (size_t p = 0; p < n.property_names.size(); ++p) {
      if (n.property_names[p] == name) {
        index[i] = static_cast<int>(p);
        break;
      }
    }
    if (index[i] != kUndeclared) {
      const auto bit = std::uint64_t{1} << static_cast<unsigned>(index[i]);
      if ((seen & bit) != 0 && !twice) {
        twice = name;
      }
      seen |= bit;
    } else {
      undeclared.push_back(name);
    }
    ++i;
  }
  if ((seen & n.required_mask) != n.required_mask) {
    for (const auto& r : n.required) {
      if (!std::ranges::any_of(members, [&](const auto& m) { return name_of(m) == r; })) {
        return at(place, "lacks the required member " + r);
      }
    }
  }
  if (!twice && undeclared.size() > 1) {
    std::sort(undeclared.begin(), undeclared.end());
    if (const auto it = std::adjacent_find(undeclared.begin(), undeclared.end()); it != undeclared.end()) {
      twice = *it;
    }
  }
  if (twice) {
    return at(place, "has the member " + text::to_valid_utf8(*twice) + " more than once");
  }
  i = 0;
  for (const auto& m : members) {
    const int p = index[i++];
    if (p == kUndeclared) {
      if (!n.additional_properties) {
        return at(place, "has a member the schema does not allow: " + text::to_valid_utf8(name_of(m)));
      }
      continue;
    }
    const auto& name = n.property_names[static_cast<size_t>(p)];
    const auto& child = n.properties[static_cast<size_t>(p)];
    if (auto problem = check(child, m.value, Place{&place, name})) {
      return problem;
    }
  }
  return std::nullopt;
}

std::optional<std::string> check(const Node& n, const rapidjson::Value& v, const Place& place) {
  const auto at = [&place](const std::string& why) { return audit::at(place, why); };
  if (n.type_mask != 0 && (types_of(v) & n.type_mask) == 0) {
    return at("is not of type " + *n.types.begin());
  }
  if (v.IsObject()) {
    if (auto problem = check_object(n, v, place)) {
      return problem;
    }
  }
  if (v.IsArray()) {
    const auto size = static_cast<std::int64_t>(v.Size());
    if (n.min_items && size < *n.min_items) {
      return at("has fewer than " + std::to_string(*n.min_items) + " items");
    }
    if (n.max_items && size > *n.max_items) {
      return at("has more than " + std::to_string(*n.max_items) + " items");
    }
    if (!n.items.empty()) {
      for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
        const auto index = std::to_string(i);
        if (auto problem = check(n.items.front(), v[i], Place{&place, index})) {
          return problem;
        }
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
    if (n.hex_digits &&
        (s.size() != *n.hex_digits || s.find_first_not_of("0123456789abcdef") != std::string_view::npos)) {
      return at("is not " + std::to_string(*n.hex_digits) + " lowercase hex digits");
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
  return check(*root_, value, Place{});
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
