#include "inventory/http/json_codec.h"

#include "error/codes.h"
#include "http/api_error.h"
#include "http/request.h"
#include "inventory/domain/errors.h"
#include "json/reader.h"
#include "json/writer.h"

namespace petstore::inventory {
namespace {

void write_item(json::Writer& w, const Item& item) {
  w.begin_object().field("petId", item.pet_id).field("quantity", item.quantity);
  w.field("status", to_string(item.status)).field("reserved", item.reserved);
  w.end_object();
}

}  // namespace

std::int64_t parse_inventory_update(const httplib::Request& req) {
  http::require_json_body(req);
  const auto doc = json::parse_object(req.body);
  json::ObjectReader in(doc);
  const auto quantity = in.required_int64("quantity");
  in.reject_unknown();
  if (quantity < 0 || quantity > kMaxQuantity) {
    throw ApiException(ApiError(400, petstore::codes::kInvalidQuantity,
                                "quantity must be between 0 and " + std::to_string(kMaxQuantity)));
  }
  return quantity;
}

std::string to_json(const Item& item) {
  json::Writer w;
  write_item(w, item);
  return w.finish();
}

std::string to_json(const std::vector<Item>& items) {
  json::Writer w;
  w.begin_array();
  for (const auto& item : items) {
    write_item(w, item);
  }
  w.end_array();
  return w.finish();
}

std::string to_json(const std::map<PetStatus, std::int64_t>& summary) {
  json::Writer w;
  w.begin_object();
  for (const auto& [status, count] : summary) {
    w.field(to_string(status), count);
  }
  w.end_object();
  return w.finish();
}

}  // namespace petstore::inventory
