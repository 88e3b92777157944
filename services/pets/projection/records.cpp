#include "pets/projection/records.h"

#include <array>
#include <string>

#include "redis/connection.h"

namespace petstore::pets {
namespace {

// In the order the readers below take them.
constexpr std::array<std::string_view, 8> kPetFieldNames = {
    "name", "categoryId", "status", "version", "createdAt", "updatedAt", "deleted", "description"};
constexpr std::array<std::string_view, 4> kCategoryFieldNames = {"name", "description", "version", "deleted"};

std::string str(const redisReply& r) {
  return std::string(redis::as_string(r));
}

bool is_nil(const redisReply& r) {
  return r.type == REDIS_REPLY_NIL;
}

// A record whose fields are those of `live`, all deleted, but for "deleted".
projection::Record tombstone(const projection::Record& live) {
  projection::Record r;
  for (const auto& [name, value] : live.fields) {
    r.fields.emplace_back(name, name == "deleted" ? std::optional<std::string>("1") : std::nullopt);
  }
  return r;
}

}  // namespace

constinit const std::span<const std::string_view> kPetFields{kPetFieldNames};
constinit const std::span<const std::string_view> kCategoryFields{kCategoryFieldNames};

std::optional<Pet> pet_from(std::int64_t id, redisReply* const* v) {
  if (is_nil(*v[0]) || str(*v[6]) != "0") {
    return std::nullopt;
  }
  Pet p;
  p.id = id;
  p.name = str(*v[0]);
  p.category_id = redis::as_integer(*v[1]);
  p.status = parse_status(redis::as_string(*v[2])).value_or(PetStatus::Available);
  p.version = redis::as_integer(*v[3]);
  p.created_at = str(*v[4]);
  p.updated_at = str(*v[5]);
  if (!is_nil(*v[7])) {
    p.description = str(*v[7]);
  }
  return p;
}

std::optional<Category> category_from(std::int64_t id, redisReply* const* v) {
  if (is_nil(*v[0]) || str(*v[3]) != "0") {
    return std::nullopt;
  }
  Category c;
  c.id = id;
  c.name = str(*v[0]);
  if (!is_nil(*v[1])) {
    c.description = str(*v[1]);
  }
  c.version = redis::as_integer(*v[2]);
  return c;
}

projection::Record pet_record(const PetKeys& keys, const std::optional<Pet>& pet) {
  const Pet p = pet.value_or(Pet{});
  const auto id = std::to_string(p.id);
  projection::Record r;
  r.fields = {{"name", p.name},
              {"categoryId", std::to_string(p.category_id)},
              {"status", std::string(to_string(p.status))},
              {"createdAt", p.created_at},
              {"updatedAt", p.updated_at},
              {"description", p.description},
              {"deleted", "0"}};
  if (!pet) {
    return tombstone(r);
  }
  for (auto index : {keys.all_pets(), keys.pets_by_status(p.status), keys.pets_by_category(p.category_id),
                     keys.pets_by_category_status(p.category_id, p.status)}) {
    r.indexes.emplace(std::move(index), id);
  }
  // Counted apart from the category's own record: pets and categories are
  // on different topics, so a replay may apply a pet before its category.
  r.counts.emplace(keys.pet_counts(), std::to_string(p.category_id));
  return r;
}

projection::Record category_record(const PetKeys& keys, const std::optional<Category>& category) {
  const Category c = category.value_or(Category{});
  projection::Record r;
  r.fields = {{"name", c.name}, {"description", c.description}, {"deleted", "0"}};
  if (!category) {
    return tombstone(r);
  }
  r.indexes.emplace(keys.all_categories(), std::to_string(c.id));
  return r;
}

}  // namespace petstore::pets
