#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "es/key_space.h"
#include "pets/domain/pet.h"

namespace petstore::pets {

// Every Redis key of the pets read model; records.h says what each holds.
class PetKeys {
 public:
  explicit PetKeys(const std::string& prefix) : space_(prefix, "pets") {}

  [[nodiscard]] const es::KeySpace& space() const { return space_; }
  [[nodiscard]] const std::string& base() const { return space_.base(); }
  [[nodiscard]] std::string offsets() const { return space_.offsets(); }

  [[nodiscard]] std::string pet_prefix() const { return space_.key("pet:"); }
  [[nodiscard]] std::string category_prefix() const { return space_.key("cat:"); }
  [[nodiscard]] std::string pet(std::int64_t id) const { return pet_prefix() + std::to_string(id); }
  [[nodiscard]] std::string category(std::int64_t id) const { return category_prefix() + std::to_string(id); }
  // category id -> number of pets in it (records.cpp says why it stands alone)
  [[nodiscard]] std::string pet_counts() const { return space_.key("cat:counts"); }
  [[nodiscard]] std::string idempotency(std::string_view scope, std::string_view key) const {
    return space_.key("idem:" + std::string(scope) + ":" + std::string(key));
  }

  // Sorted sets of ids (score = id) used for filtered, cursor-paginated lists.
  [[nodiscard]] std::string all_pets() const { return space_.key("pets:all"); }
  [[nodiscard]] std::string pets_by_status(PetStatus s) const {
    return space_.key("pets:s:" + std::string(to_string(s)));
  }
  [[nodiscard]] std::string pets_by_category(std::int64_t c) const {
    return space_.key("pets:c:" + std::to_string(c));
  }
  [[nodiscard]] std::string pets_by_category_status(std::int64_t c, PetStatus s) const {
    return pets_by_category(c) + ":s:" + std::string(to_string(s));
  }
  [[nodiscard]] std::string all_categories() const { return space_.key("cats:all"); }

  [[nodiscard]] static es::NotFromLog not_from_log() { return {}; }

 private:
  es::KeySpace space_;
};

}  // namespace petstore::pets
