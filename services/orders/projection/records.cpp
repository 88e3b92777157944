#include "orders/projection/records.h"

#include <array>
#include <string>

#include "redis/connection.h"

namespace petstore::orders {
namespace {

// In the order the readers below take them.
constexpr std::array<std::string_view, 8> kOrderFieldNames = {
    "petId", "quantity", "shipDate", "status", "rejection", "version", "createdAt", "updatedAt"};

std::optional<std::string> optional_text(const redisReply& r) {
  if (r.type == REDIS_REPLY_NIL) {
    return std::nullopt;
  }
  return std::string(redis::as_string(r));
}

}  // namespace

constinit const std::span<const std::string_view> kOrderFields{kOrderFieldNames};

std::optional<Order> order_from(std::int64_t id, redisReply* const* v) {
  if (v[0]->type == REDIS_REPLY_NIL) {
    return std::nullopt;
  }
  Order o;
  o.id = id;
  o.pet_id = redis::as_integer(*v[0]);
  o.quantity = redis::as_integer(*v[1]);
  o.ship_date = optional_text(*v[2]);
  o.status = parse_order_status(redis::as_string(*v[3])).value_or(OrderStatus::Placed);
  if (const auto reason = optional_text(*v[4])) {
    o.rejection = parse_refusal(*reason);
  }
  o.version = redis::as_integer(*v[5]);
  o.created_at = optional_text(*v[6]).value_or("");
  o.updated_at = optional_text(*v[7]).value_or("");
  return o;
}

projection::Record order_record(const OrderKeys& keys, const Order& o) {
  projection::Record r;
  if (o.version == 0) {
    return r;
  }
  std::optional<std::string> rejection;
  if (o.rejection) {
    rejection = std::string(to_string(*o.rejection));
  }
  r.fields = {{"petId", std::to_string(o.pet_id)},
              {"quantity", std::to_string(o.quantity)},
              {"shipDate", o.ship_date},
              {"status", std::string(to_string(o.status))},
              {"rejection", rejection},
              {"createdAt", o.created_at},
              {"updatedAt", o.updated_at}};
  const auto id = std::to_string(o.id);
  for (const std::optional<std::int64_t> pet : {std::optional<std::int64_t>{}, std::optional(o.pet_id)}) {
    for (auto index : {keys.index(pet, std::nullopt, std::nullopt), keys.index(pet, o.status, std::nullopt),
                       keys.index(pet, std::nullopt, o.complete())}) {
      r.indexes.emplace(std::move(index), id);
    }
  }
  return r;
}

}  // namespace petstore::orders
