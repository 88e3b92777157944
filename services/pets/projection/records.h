#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <hiredis/hiredis.h>

#include "pets/domain/pet.h"
#include "pets/projection/keys.h"
#include "projection/effect.h"

namespace petstore::pets {

// How the read model holds a pet and a category: the fields of their
// hashes, read back (by ReadModel, and by the projection, which folds on
// what it reads) and written (as the projection::Record the fold leaves).
// The one place a field of either is named in Redis.

// Field order of an HMGET that pet_from() reads.
extern const std::span<const std::string_view> kPetFields;
extern const std::span<const std::string_view> kCategoryFields;

// The pet (or category) of an HMGET of those fields; none for a key that
// holds none (never created, or deleted). A category's pet count stands
// apart (PetKeys::pet_counts) and is left 0.
std::optional<Pet> pet_from(std::int64_t id, redisReply* const* fields);
std::optional<Category> category_from(std::int64_t id, redisReply* const* fields);

// What the read model holds of a pet: its fields, the lists it is in, the
// category count it counts in; of one deleted, a tombstone that keeps its
// version, so a redelivered older event cannot bring it back.
projection::Record pet_record(const PetKeys& keys, const std::optional<Pet>& pet);
projection::Record category_record(const PetKeys& keys, const std::optional<Category>& category);

}  // namespace petstore::pets
