#include "pets/domain/evolve.h"

#include "text/datetime.h"
#include "util/overloaded.h"

namespace petstore::pets {

namespace {

void count_pet(Catalogue& s, std::int64_t category, std::int64_t delta) {
  const auto n = s.pet_counts[category] += delta;
  if (auto it = s.categories.find(category); it != s.categories.end()) {
    it->second.pet_count = n;
  }
}

}  // namespace

Pet updated(Pet pet, const PetUpdated& e, std::int64_t version, const std::string& time) {
  pet.id = e.id;
  pet.name = e.name;
  pet.category_id = e.category_id;
  pet.status = e.status;
  pet.description = e.description;
  pet.version = version;
  pet.updated_at = time;
  return pet;
}

void evolve(std::optional<Pet>& pet, const Event& event, std::int64_t version, const std::string& time) {
  std::visit(Overloaded{
                 [&](const PetCreated& e) {
                   pet = Pet{e.id, e.name, e.category_id, e.status, version, time, time, e.description};
                 },
                 [&](const PetUpdated& e) { pet = updated(pet.value_or(Pet{}), e, version, time); },
                 [&](const PetStatusChanged& e) {
                   if (!pet) {
                     pet = Pet{};
                     pet->id = e.id;
                   }
                   pet->status = e.to;
                   pet->version = version;
                   pet->updated_at = time;
                 },
                 [&](const PetDeleted&) { pet.reset(); },
                 [](const CategoryCreated&) {},
                 [](const CategoryUpdated&) {},
                 [](const CategoryDeleted&) {},
                 [](const CategoryPetsAdmitted&) {},
             },
             event);
}

void evolve(std::optional<Category>& category, const Event& event, std::int64_t version,
            const std::string& /*time*/) {
  std::visit(Overloaded{
                 [&](const CategoryCreated& e) {
                   category = Category{e.id, e.name, e.description, version, 0};
                 },
                 [&](const CategoryUpdated& e) {
                   const auto count = category ? category->pet_count : 0;
                   category = Category{e.id, e.name, e.description, version, count};
                 },
                 [&](const CategoryDeleted&) { category.reset(); },
                 [&](const CategoryPetsAdmitted&) {
                   if (category) {
                     category->version = version;
                   }
                 },
                 [](const auto&) {},
             },
             event);
}

void evolve(CategoryState& state, const Event& event, std::int64_t version, const std::string& time) {
  evolve(state.category, event, version, time);
  if (!state.category) {
    state.admitted.clear();
    return;
  }
  if (const auto* a = std::get_if<CategoryPetsAdmitted>(&event)) {
    const auto at = text::parse_time_ms(time).value_or(0);
    std::erase_if(state.admitted, [&](const auto& entry) {
      return entry.second.at_ms < at - std::chrono::milliseconds(kAdmissionsKept).count();
    });
    for (const auto& pet : a->pets) {
      state.admitted.insert_or_assign(pet.pet_id, Admission{pet.pet_version, at});
    }
  }
}

bool evolve(Catalogue& s, const Event& event, std::int64_t version, const std::string& time) {
  const auto id = aggregate_of(event);
  auto& applied = s.versions[id];
  if (version <= applied) {
    return false;
  }
  applied = version;
  if (!is_category_event(event)) {
    const auto it = s.pets.find(id);
    std::optional<Pet> pet;
    if (it != s.pets.end()) {
      pet = it->second;
      count_pet(s, pet->category_id, -1);
    }
    evolve(pet, event, version, time);
    if (pet) {
      count_pet(s, pet->category_id, 1);
      s.pets.insert_or_assign(id, *std::move(pet));
    } else if (it != s.pets.end()) {
      s.pets.erase(it);
    }
    return true;
  }
  const auto it = s.categories.find(id);
  std::optional<Category> category;
  if (it != s.categories.end()) {
    category = it->second;
  }
  evolve(category, event, version, time);
  if (category) {
    category->pet_count = s.pet_counts[id];
    s.categories.insert_or_assign(id, *std::move(category));
  } else if (it != s.categories.end()) {
    s.categories.erase(it);
  }
  return true;
}

}  // namespace petstore::pets
