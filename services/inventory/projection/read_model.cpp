#include "inventory/projection/read_model.h"

#include "inventory/domain/errors.h"
#include "inventory/projection/records.h"

namespace petstore::inventory {
namespace {

std::int64_t integer_or_zero(const redisReply& r) {
  return r.type == REDIS_REPLY_NIL ? 0 : redis::as_integer(r);
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
