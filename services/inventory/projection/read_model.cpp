#include "projection/read_model.h"

#include <array>
#include <string_view>

#include "domain/errors.h"

namespace petstore::inventory {
namespace {

constexpr std::array<std::string_view, 7> kItemFields = {"tracked",  "petStatus", "petVersion", "quantity",
                                                         "reserved", "version",   "updatedAt"};

std::int64_t integer_or_zero(const redisReply& r) {
  return r.type == REDIS_REPLY_NIL ? 0 : redis::as_integer(r);
}

Item item_from(std::int64_t pet, redisReply* const* v) {
  Item item;
  item.pet_id = pet;
  item.tracked = v[0]->type != REDIS_REPLY_NIL && redis::as_string(*v[0]) == "1";
  if (v[1]->type != REDIS_REPLY_NIL) {
    item.pet_status = parse_status(redis::as_string(*v[1])).value_or(PetStatus::Available);
  }
  item.pet_version = integer_or_zero(*v[2]);
  item.quantity = integer_or_zero(*v[3]);
  item.reserved = integer_or_zero(*v[4]);
  item.version = integer_or_zero(*v[5]);
  if (v[6]->type != REDIS_REPLY_NIL) {
    item.updated_at = std::string(redis::as_string(*v[6]));
  }
  item.status = effective_status(item.pet_status, item.quantity, item.reserved);
  return item;
}

Reservation reservation_from(const redisReply& r) {
  if (r.type == REDIS_REPLY_NIL) {
    return {};
  }
  const auto text = redis::as_string(r);
  const auto colon = text.find(':');
  const auto state = text.substr(0, colon);
  const auto amount = colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
  auto units = [&] { return amount.empty() || state == "refused" ? 0 : std::stoll(std::string(amount)); };
  using State = Reservation::State;
  if (state == "reserved") {
    return {State::Reserved, units()};
  }
  if (state == "refused") {
    return {State::Refused, 0};
  }
  if (state == "released") {
    return {State::Released, units()};
  }
  return {State::Consumed, units()};
}

}  // namespace

ReadModel::ReadModel(redis::Multiplexer& reads, InventoryKeys keys)
    : reads_(reads), keys_(std::move(keys)), lister_(reads) {}

std::pair<Item, Reservation> ReadModel::ledger(std::int64_t pet_id, std::int64_t order_id) {
  const auto key = keys_.item(pet_id);  // Args only view it: it must outlive them
  std::vector<redis::Args> commands{readmodel::hmget(key, kItemFields)};
  const auto order = std::to_string(order_id);
  const auto reservations = keys_.reservations(pet_id);
  if (order_id != 0) {
    commands.push_back({"HGET", reservations, order});
  }
  const auto replies = reads_.commands(commands);
  auto item = item_from(pet_id, redis::expect_ok(replies[0]).element);
  Reservation res;
  if (order_id != 0) {
    res = reservation_from(redis::expect_ok(replies[1]));
  }
  return {std::move(item), res};
}

readmodel::Page<std::string> ReadModel::item_history(std::int64_t id, const http::PageRequest& page) {
  return readmodel::require_history(reads_, keys_.item(id), page, codes::kItemNotFound,
                                    "pet " + std::to_string(id) + " has no inventory entry");
}

Item ReadModel::require_item(std::int64_t pet_id) {
  auto item = ledger(pet_id).first;
  if (!item.tracked) {
    throw DomainError(DomainError::Kind::NotFound, codes::kItemNotFound,
                      "pet " + std::to_string(pet_id) + " has no inventory entry");
  }
  return item;
}

readmodel::Page<Item> ReadModel::items(std::optional<PetStatus> status, const http::PageRequest& page) {
  const auto index = status ? keys_.items_by_status(*status) : keys_.all_items();
  return lister_.page<Item>(index, keys_.item_prefix(), kItemFields, page,
                            [](std::int64_t pet, redisReply* const* v) -> std::optional<Item> {
                              auto item = item_from(pet, v);
                              if (!item.tracked) {
                                return std::nullopt;
                              }
                              return item;
                            });
}

std::map<PetStatus, std::int64_t> ReadModel::summary() {
  const auto reply = reads_.command({"HMGET", keys_.counts(), "available", "pending", "sold"});
  const auto& r = redis::expect_ok(reply);
  return {{PetStatus::Available, integer_or_zero(*r.element[0])},
          {PetStatus::Pending, integer_or_zero(*r.element[1])},
          {PetStatus::Sold, integer_or_zero(*r.element[2])}};
}

}  // namespace petstore::inventory
