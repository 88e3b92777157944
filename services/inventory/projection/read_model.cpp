#include "inventory/projection/read_model.h"

#include <array>
#include <string_view>

#include "inventory/domain/errors.h"

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

}  // namespace

ReadModel::ReadModel(redis::Multiplexer& reads, InventoryKeys keys)
    : reads_(reads), keys_(std::move(keys)), lister_(reads) {}

readmodel::Page<std::string> ReadModel::item_history(std::int64_t id, const readmodel::PageRequest& page) {
  return readmodel::require_history(reads_, keys_.item(id), page, codes::kItemNotFound,
                                    "pet " + std::to_string(id) + " has no inventory entry");
}

Item ReadModel::require_item(std::int64_t pet_id) {
  const auto key = keys_.item(pet_id);  // Args only view it: it must outlive them
  const auto reply = reads_.command(readmodel::hmget(key, kItemFields));
  auto item = item_from(pet_id, redis::expect_ok(reply).element);
  if (!item.tracked) {
    throw DomainError(DomainError::Kind::NotFound, codes::kItemNotFound,
                      "pet " + std::to_string(pet_id) + " has no inventory entry");
  }
  return item;
}

readmodel::Page<Item> ReadModel::items(std::optional<PetStatus> status, const readmodel::PageRequest& page) {
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
