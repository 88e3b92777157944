#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "pets/domain/events.h"
#include "pets/domain/pet.h"
#include "pets/projection/keys.h"
#include "readmodel/history.h"
#include "readmodel/list_page.h"
#include "redis/multiplexer.h"

namespace petstore::pets {

template <typename T>
using Page = readmodel::Page<T>;

struct PetFilter {
  std::optional<PetStatus> status;
  std::optional<std::int64_t> category_id;
};

// Queries against the Redis read model; every read is one round trip over
// the shared pipelined connection (redis::Multiplexer).
class ReadModel {
 public:
  ReadModel(redis::Multiplexer& reads, PetKeys keys);

  std::optional<Pet> pet(std::int64_t id);
  std::optional<Category> category(std::int64_t id);
  // The first of `pets` whose version the read model has not applied,
  // deleted or not; nullopt when it has them all. One round trip.
  std::optional<std::int64_t> first_not_applied(const std::vector<PetAdmission>& pets);
  // How many pets of the read model name category `id`, known or not.
  std::int64_t pets_in(std::int64_t category_id);
  // The same, but a missing resource is a DomainError (404 pet_not_found /
  // category_not_found), the one place that answer is made.
  Pet require_pet(std::int64_t id);
  // The aggregate's events (CloudEvents JSON) after version `page.after`; 404
  // when no event names it. Kept after a deletion.
  readmodel::Page<std::string> pet_history(std::int64_t id, const readmodel::PageRequest& page);
  Category require_category(std::int64_t id);
  Page<Pet> pets(const PetFilter& filter, const readmodel::PageRequest& page);
  Page<Category> categories(const readmodel::PageRequest& page);

 private:
  redis::Multiplexer& reads_;
  PetKeys keys_;
  readmodel::Lister lister_;
};

}  // namespace petstore::pets
