#include "orders/http/json_codec.h"

#include "error/codes.h"
#include "http/api_error.h"
#include "http/request.h"
#include "json/reader.h"
#include "json/writer.h"
#include "text/datetime.h"

namespace petstore::orders {
namespace {

[[noreturn]] void invalid(const char* code, const std::string& message) {
  throw ApiException(ApiError(400, code, message));
}

std::optional<std::string> ship_date(json::ObjectReader& in) {
  auto date = in.optional_string("shipDate");
  if (date && !text::is_date_time(*date)) {
    invalid(codes::kInvalidValue, "shipDate must be an RFC 3339 date-time, e.g. 2026-12-01T10:00:00Z");
  }
  return date;
}

void write_order(json::Writer& w, const Order& o) {
  w.begin_object().field("id", o.id).field("petId", o.pet_id).field("quantity", o.quantity);
  w.optional_field("shipDate", o.ship_date);
  w.field("complete", o.complete()).field("status", to_string(o.status));
  if (o.rejection) {
    w.field("rejection", to_string(*o.rejection));
  }
  w.end_object();
}

}  // namespace

OrderFields parse_new_order(const httplib::Request& req) {
  http::require_json_body(req);
  const auto doc = json::parse_object(req.body);
  json::ObjectReader in(doc);
  for (const char* read_only : {"id", "status"}) {
    if (in.has(read_only)) {
      invalid(codes::kReadOnlyField, std::string("field '") + read_only + "' is set by the service");
    }
  }
  OrderFields fields;
  fields.pet_id = in.required_int64("petId");
  fields.quantity = in.optional_int64("quantity").value_or(1);
  fields.ship_date = ship_date(in);
  if (in.optional_bool("complete").value_or(false)) {
    invalid(codes::kInvalidValue, "a new order cannot be complete; complete it with POST .../complete");
  }
  in.reject_unknown();
  return fields;
}

std::optional<std::string> parse_completion(const httplib::Request& req) {
  if (req.body.empty()) {
    return std::nullopt;
  }
  http::require_json_body(req);
  const auto doc = json::parse_object(req.body);
  json::ObjectReader in(doc);
  auto date = ship_date(in);
  in.reject_unknown();
  return date;
}

std::string to_json(const Order& order) {
  json::Writer w;
  write_order(w, order);
  return w.finish();
}

std::string to_json(const std::vector<Order>& orders) {
  json::Writer w;
  w.begin_array();
  for (const auto& o : orders) {
    write_order(w, o);
  }
  w.end_array();
  return w.finish();
}

}  // namespace petstore::orders
