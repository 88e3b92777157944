#include "pets/projection/pets_projection.h"

#include "pets/domain/evolve.h"
#include "pets/projection/records.h"

namespace petstore::pets {

Event PetsModel::decode(const events::Envelope& envelope) const {
  return projection::decode_own_event(envelope, pets::decode, aggregate_of);
}

std::string PetsModel::key(const Event& e) const {
  return is_category_event(e) ? keys_.category(aggregate_of(e)) : keys_.pet(aggregate_of(e));
}

std::vector<projection::Command> PetsModel::reads(const std::vector<const Event*>& batch) const {
  const auto& e = *batch.front();
  return {projection::hmget(key(e), is_category_event(e) ? kCategoryFields : kPetFields)};
}

PetsModel::State PetsModel::state(const std::vector<const Event*>& batch,
                                  std::span<const redis::Reply> replies) const {
  const auto& e = *batch.front();
  State s;
  const auto* fields = replies.front()->element;
  if (is_category_event(e)) {
    s.category = category_from(aggregate_of(e), fields);
  } else {
    s.pet = pet_from(aggregate_of(e), fields);
  }
  return s;
}

void PetsModel::evolve(State& s, const Event& e, std::int64_t version, const std::string& time) const {
  pets::evolve(s.pet, e, version, time);
  pets::evolve(s.category, e, version, time);
}

projection::Record PetsModel::record(const State& s, const Event& e) const {
  return is_category_event(e) ? category_record(keys_, s.category) : pet_record(keys_, s.pet);
}

}  // namespace petstore::pets
