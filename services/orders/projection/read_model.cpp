#include "orders/projection/read_model.h"

#include <array>
#include <string_view>

#include "orders/domain/errors.h"

namespace petstore::orders {
namespace {

constexpr std::array<std::string_view, 8> kOrderFields = {"petId",     "quantity", "shipDate",  "status",
                                                          "rejection", "version",  "createdAt", "updatedAt"};

std::optional<std::string> optional_text(const redisReply& r) {
  if (r.type == REDIS_REPLY_NIL) {
    return std::nullopt;
  }
  return std::string(redis::as_string(r));
}

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

}  // namespace

ReadModel::ReadModel(redis::Multiplexer& reads, OrderKeys keys)
    : reads_(reads), keys_(std::move(keys)), lister_(reads) {}

std::optional<Order> ReadModel::order(std::int64_t id) {
  const auto reply = reads_.command(readmodel::hmget(keys_.order(id), kOrderFields));
  return order_from(id, redis::expect_ok(reply).element);
}

readmodel::Page<std::string> ReadModel::order_history(std::int64_t id, const readmodel::PageRequest& page) {
  return readmodel::require_history(reads_, keys_.order(id), page, codes::kOrderNotFound,
                                    "order " + std::to_string(id) + " does not exist");
}

Order ReadModel::require_order(std::int64_t id) {
  auto found = order(id);
  if (!found) {
    throw DomainError(DomainError::Kind::NotFound, codes::kOrderNotFound,
                      "order " + std::to_string(id) + " does not exist");
  }
  return *std::move(found);
}

readmodel::Page<Order> ReadModel::orders(const OrderFilter& filter, const readmodel::PageRequest& page) {
  return lister_.page<Order>(keys_.index(filter.pet_id, filter.status, filter.complete), keys_.order_prefix(),
                             kOrderFields, page, order_from);
}

}  // namespace petstore::orders
