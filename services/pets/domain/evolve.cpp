#include "domain/evolve.h"

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

bool evolve(Catalogue& s, const Event& event, std::int64_t version, const std::string& time) {
  const auto id = aggregate_of(event);
  auto& applied = s.versions[id];
  if (version <= applied) {
    return false;
  }
  applied = version;
  std::visit(Overloaded{
                 [&](const PetCreated& e) {
                   s.pets[id] = Pet{id, e.name, e.category_id, e.status, version, time, time, e.description};
                   count_pet(s, e.category_id, 1);
                 },
                 [&](const PetUpdated& e) {
                   auto& p = s.pets[id];
                   if (p.category_id != e.category_id) {
                     count_pet(s, p.category_id, -1);
                     count_pet(s, e.category_id, 1);
                   }
                   p = updated(std::move(p), e, version, time);
                 },
                 [&](const PetStatusChanged& e) {
                   auto& p = s.pets[id];
                   p.status = e.to;
                   p.version = version;
                   p.updated_at = time;
                 },
                 [&](const PetDeleted&) {
                   if (auto it = s.pets.find(id); it != s.pets.end()) {
                     count_pet(s, it->second.category_id, -1);
                     s.pets.erase(it);
                   }
                 },
                 [&](const CategoryCreated& e) {
                   s.categories[id] = Category{id, e.name, e.description, version, s.pet_counts[id]};
                 },
                 [&](const CategoryUpdated& e) {
                   auto& c = s.categories[id];
                   c.id = id;
                   c.name = e.name;
                   c.description = e.description;
                   c.version = version;
                 },
                 [&](const CategoryDeleted&) { s.categories.erase(id); },
             },
             event);
  return true;
}

}  // namespace petstore::pets
