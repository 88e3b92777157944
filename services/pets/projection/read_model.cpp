#include "pets/projection/read_model.h"

#include "pets/domain/errors.h"
#include "pets/projection/records.h"

namespace petstore::pets {

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

// An integer reply, or 0 for nil (a field not set).
std::int64_t integer_or_zero(const redis::Reply& reply) {
  const auto& r = redis::expect_ok(reply);
  return r.type == REDIS_REPLY_NIL ? 0 : redis::as_integer(r);
}

}  // namespace

std::optional<std::int64_t> ReadModel::first_not_applied(const std::vector<PetAdmission>& pets) {
  std::vector<std::string> keys;  // the commands below view them
  keys.reserve(pets.size());
  std::vector<redis::Args> reads;
  reads.reserve(pets.size());
  for (const auto& p : pets) {
    reads.push_back({"HGET", keys.emplace_back(keys_.pet(p.pet_id)), "version"});
  }
  const auto replies = reads_.commands(reads);
  for (std::size_t i = 0; i < pets.size(); ++i) {
    if (integer_or_zero(replies[i]) < pets[i].pet_version) {
      return pets[i].pet_id;
    }
  }
  return std::nullopt;
}

std::int64_t ReadModel::pets_in(std::int64_t category_id) {
  const auto id = std::to_string(category_id);
  return integer_or_zero(reads_.command({"HGET", keys_.pet_counts(), id}));
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
