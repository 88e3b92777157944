#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "pets/domain/events.h"
#include "pets/domain/pet.h"

namespace petstore::pets {

// Pure decisions: given the current state and a command, the event to record
// (or none when the command changes nothing), or a DomainError. The
// caller guarantees existence checks (404s) and concurrency; these functions
// only apply the domain's rules.

PetCreated decide_create_pet(std::int64_t id, const PetFields& fields);
std::optional<PetUpdated> decide_replace_pet(const Pet& current, const PetFields& fields);
std::optional<PetStatusChanged> decide_change_status(const Pet& current, PetStatus to);
PetDeleted decide_delete_pet(const Pet& current);

CategoryCreated decide_create_category(std::int64_t id, const CategoryFields& fields);
std::optional<CategoryUpdated> decide_replace_category(const Category& current, const CategoryFields& fields);
// Lets `pets` join category `id` (being created in it or moved to it):
// 422 unknown_category when the category does not exist.
CategoryPetsAdmitted decide_admit_pets(const CategoryState& current, std::int64_t id,
                                       std::vector<PetAdmission> pets);

// How long after a pet's admission its own event may still land (its
// command has `decide` to decide, then the longest append), and how far
// two replicas' clocks may be apart: what a delete waits out of an
// admission it cannot see the pet of. Below kAdmissionsKept.
struct AdmissionWindow {
  std::chrono::milliseconds decide{2'000};
  std::chrono::milliseconds longest_append{16'250};
  std::chrono::milliseconds clock_skew{1'000};
  [[nodiscard]] std::chrono::milliseconds total() const { return decide + longest_append + clock_skew; }
};

// What a delete asks of the pets topic, brought to its end.
struct PetsSeen {
  // The first of `admitted` whose pet the pets topic does not hold at its
  // version or later; nullopt when it holds them all.
  std::function<std::optional<std::int64_t>(const std::vector<PetAdmission>& admitted)> first_not_landed;
  // How many of its pets name the category.
  std::function<std::int64_t()> naming;
};

// Refused while a pet admitted to the category may still be on its way
// (409 category_in_use with Retry-After): admitted within the window, and
// not landed; or while pets name it (409 category_in_use). `now_ms`: ms
// since the epoch.
CategoryDeleted decide_delete_category(const CategoryState& current, const PetsSeen& pets,
                                       std::int64_t now_ms, const AdmissionWindow& window);

}  // namespace petstore::pets
