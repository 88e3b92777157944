#include "pets/projection/read_model.h"

#include <array>
#include <string_view>

#include "pets/domain/errors.h"

namespace petstore::pets {
namespace {

std::string str(const redisReply& r) {
  return std::string(redis::as_string(r));
}

bool is_nil(const redisReply& r) {
  return r.type == REDIS_REPLY_NIL;
}

// Field order shared by the single and list reads.
constexpr std::array<std::string_view, 8> kPetFields = {"name",      "categoryId", "status",  "version",
                                                        "createdAt", "updatedAt",  "deleted", "description"};
constexpr std::array<std::string_view, 4> kCategoryFields = {"name", "description", "version", "deleted"};

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

// Lists do not show pet counts, so only the single read fetches them.
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

}  // namespace

ReadModel::ReadModel(redis::Multiplexer& reads, PetKeys keys)
    : reads_(reads), keys_(std::move(keys)), lister_(reads) {}

namespace {

std::optional<Category> category_with_count(std::int64_t id, const redis::Reply& fields,
                                            const redis::Reply& count) {
  auto category = category_from(id, redis::expect_ok(fields).element);
  if (category) {
    category->pet_count = redis::as_integer(redis::expect_ok(count));
  }
  return category;
}

}  // namespace

std::optional<Pet> ReadModel::pet(std::int64_t id) {
  const auto reply = reads_.command(readmodel::hmget(keys_.pet(id), kPetFields));
  return pet_from(id, redis::expect_ok(reply).element);
}

std::optional<Category> ReadModel::category(std::int64_t id) {
  const auto id_text = std::to_string(id);
  const auto replies = reads_.commands(
      {readmodel::hmget(keys_.category(id), kCategoryFields), {"HGET", keys_.pet_counts(), id_text}});
  return category_with_count(id, replies[0], replies[1]);
}

namespace {

Pet found_or_404(std::int64_t id, std::optional<Pet> found) {
  if (!found) {
    throw DomainError(DomainError::Kind::NotFound, codes::kPetNotFound,
                      "pet " + std::to_string(id) + " does not exist");
  }
  return *std::move(found);
}

}  // namespace

readmodel::Page<std::string> ReadModel::pet_history(std::int64_t id, const readmodel::PageRequest& page) {
  return readmodel::require_history(reads_, keys_.pet(id), page, codes::kPetNotFound,
                                    "pet " + std::to_string(id) + " does not exist");
}

Pet ReadModel::require_pet(std::int64_t id) {
  return found_or_404(id, pet(id));
}

Category ReadModel::require_category(std::int64_t id) {
  auto found = category(id);
  if (!found) {
    throw DomainError(DomainError::Kind::NotFound, codes::kCategoryNotFound,
                      "category " + std::to_string(id) + " does not exist");
  }
  return *std::move(found);
}

Page<Pet> ReadModel::pets(const PetFilter& filter, const readmodel::PageRequest& page) {
  std::string index;
  if (filter.status && filter.category_id) {
    index = keys_.pets_by_category_status(*filter.category_id, *filter.status);
  } else if (filter.status) {
    index = keys_.pets_by_status(*filter.status);
  } else if (filter.category_id) {
    index = keys_.pets_by_category(*filter.category_id);
  } else {
    index = keys_.all_pets();
  }
  return lister_.page<Pet>(index, keys_.pet_prefix(), kPetFields, page, pet_from);
}

Page<Category> ReadModel::categories(const readmodel::PageRequest& page) {
  return lister_.page<Category>(keys_.all_categories(), keys_.category_prefix(), kCategoryFields, page,
                                category_from);
}

}  // namespace petstore::pets
