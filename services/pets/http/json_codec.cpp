#include "pets/http/json_codec.h"

#include "error/codes.h"
#include "http/api_error.h"
#include "http/request.h"
#include "json/event_fields.h"
#include "json/reader.h"
#include "json/writer.h"

namespace petstore::pets {
namespace {

[[noreturn]] void invalid(const char* code, const std::string& message) {
  throw ApiException(ApiError(400, code, message));
}

void check_body_id(json::ObjectReader& in, std::optional<std::int64_t> path_id) {
  if (!in.has("id")) {
    static_cast<void>(in.optional_int64("id"));  // a null id is allowed and ignored
    return;
  }
  const auto id = in.optional_int64("id");
  if (!path_id) {
    invalid(codes::kReadOnlyField, "field 'id' is assigned by the service and must not be sent");
  }
  if (id != path_id) {
    invalid(codes::kInvalidValue, "field 'id' does not match the id in the path");
  }
}

std::int64_t positive_id(json::ObjectReader& in, const char* name) {
  const auto v = in.required_int64(name);
  // Ids are at most 2^53 - 1 (json::kMaxExactInteger): a larger one names
  // nothing, and an event could not carry it exactly.
  if (v <= 0 || v > json::kMaxExactInteger) {
    invalid(codes::kInvalidValue,
            std::string("field '") + name + "' must be a positive id, at most 9007199254740991");
  }
  return v;
}

void write_pet_fields(json::Writer& w, const Pet& p) {
  w.field("id", p.id).field("name", p.name).field("categoryId", p.category_id);
  w.field("status", to_string(p.status)).optional_field("description", p.description);
}

void write_category(json::Writer& w, const Category& c) {
  w.begin_object().field("id", c.id).field("name", c.name);
  w.optional_field("description", c.description);
  w.end_object();
}

}  // namespace

PetStatus parse_status_value(const std::string& text, const char* where) {
  const auto s = parse_status(text);
  if (!s) {
    invalid(codes::kInvalidValue, std::string(where) + " must be one of available, pending, sold; got '" +
                                      text.substr(0, 40) + "'");
  }
  return *s;
}

PetFields parse_pet(const httplib::Request& req, std::optional<std::int64_t> path_id) {
  http::require_json_body(req);
  const auto doc = json::parse_object(req.body);
  json::ObjectReader in(doc);
  check_body_id(in, path_id);
  PetFields f;
  f.name = in.required_string("name");
  f.category_id = positive_id(in, "categoryId");
  if (const auto status = in.optional_string("status")) {
    f.status = parse_status_value(*status, "field 'status'");
  }
  f.description = in.optional_string("description");
  in.reject_unknown();
  return f;
}

PetStatus parse_status_change(const httplib::Request& req) {
  http::require_json_body(req);
  const auto doc = json::parse_object(req.body);
  json::ObjectReader in(doc);
  const auto status = parse_status_value(in.required_string("status"), "field 'status'");
  in.reject_unknown();
  return status;
}

CategoryFields parse_category(const httplib::Request& req, std::optional<std::int64_t> path_id) {
  http::require_json_body(req);
  const auto doc = json::parse_object(req.body);
  json::ObjectReader in(doc);
  check_body_id(in, path_id);
  CategoryFields f;
  f.name = in.required_string("name");
  f.description = in.optional_string("description");
  in.reject_unknown();
  return f;
}

std::string to_json(const Pet& pet) {
  json::Writer w;
  w.begin_object();
  write_pet_fields(w, pet);
  w.end_object();
  return w.finish();
}

std::string to_profile_json(const Pet& pet) {
  json::Writer w;
  w.begin_object();
  write_pet_fields(w, pet);
  w.field("version", pet.version).field("createdAt", pet.created_at).field("updatedAt", pet.updated_at);
  w.end_object();
  return w.finish();
}

std::string to_json(const Category& category) {
  json::Writer w;
  write_category(w, category);
  return w.finish();
}

std::string to_json(const std::vector<Pet>& pets) {
  json::Writer w;
  w.begin_array();
  for (const auto& p : pets) {
    w.begin_object();
    write_pet_fields(w, p);
    w.end_object();
  }
  w.end_array();
  return w.finish();
}

std::string to_json(const std::vector<Category>& categories) {
  json::Writer w;
  w.begin_array();
  for (const auto& c : categories) {
    write_category(w, c);
  }
  w.end_array();
  return w.finish();
}

}  // namespace petstore::pets
