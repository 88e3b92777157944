#include "domain/evolve.h"

namespace petstore::pets {
namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};

void move_pet_between_categories(Catalogue& s, std::int64_t from, std::int64_t to) {
  if (from == to) {
    return;
  }
  if (auto it = s.categories.find(from); it != s.categories.end()) {
    --it->second.pet_count;
  }
  if (auto it = s.categories.find(to); it != s.categories.end()) {
    ++it->second.pet_count;
  }
}

}  // namespace

bool evolve(Catalogue& s, const Event& event, std::int64_t version, const std::string& time) {
  const auto id = aggregate_of(event);
  auto& applied = s.versions[id];
  if (version <= applied) {
    return false;
  }
  applied = version;
  std::visit(Overloaded{
                 [&](const PetCreated& e) {
                   s.pets[id] = Pet{id, e.name, e.category_id, e.status, version, time, time};
                   if (auto it = s.categories.find(e.category_id); it != s.categories.end()) {
                     ++it->second.pet_count;
                   }
                 },
                 [&](const PetUpdated& e) {
                   auto& p = s.pets[id];
                   move_pet_between_categories(s, p.category_id, e.category_id);
                   p.id = id;
                   p.name = e.name;
                   p.category_id = e.category_id;
                   p.status = e.status;
                   p.version = version;
                   p.updated_at = time;
                 },
                 [&](const PetStatusChanged& e) {
                   auto& p = s.pets[id];
                   p.status = e.to;
                   p.version = version;
                   p.updated_at = time;
                 },
                 [&](const PetDeleted&) {
                   if (auto it = s.pets.find(id); it != s.pets.end()) {
                     if (auto c = s.categories.find(it->second.category_id); c != s.categories.end()) {
                       --c->second.pet_count;
                     }
                     s.pets.erase(it);
                   }
                 },
                 [&](const CategoryCreated& e) {
                   s.categories[id] = Category{id, e.name, e.description, version, 0};
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
