#include "inventory/app/reactions.h"

#include "inventory/domain/decide.h"
#include "inventory/domain/upstream.h"
#include "projection/read_upstream.h"

namespace petstore::inventory {
namespace {

// Both reactions change one pet's ledger per event: that pet is the event's
// affinity (Reaction::affinity), one key scheme for the two.
template <typename Read>
std::string by_pet(const kafka::Message& m, Read read) {
  const auto fact = projection::peek_upstream(m, read);
  return fact ? "pet:" + std::to_string(fact->pet_id) : std::string();
}

}  // namespace

void PetsReaction::handle(const kafka::Message& m) {
  handle_in_full(m);
}

projection::Reaction::Rest PetsReaction::begin(const kafka::Message& m) {
  auto begun = begin_each({{&m, {}}});  // in the reactor's span (trace::current())
  if (begun.failed[0]) {
    std::rethrow_exception(begun.failed[0]);
  }
  return std::move(begun.rest);
}

projection::Reaction::BegunEach PetsReaction::begin_each(const std::vector<Step>& steps) {
  std::vector<PetFact> facts;
  std::vector<std::size_t> index;  // the step each fact comes from
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (auto fact = projection::read_upstream(*steps[i].message, "inventory", read_pet_fact)) {
      facts.push_back(*fact);
      index.push_back(i);
    }
  }
  std::vector<Ledgers::Change> changes;
  changes.reserve(facts.size());
  for (std::size_t k = 0; k < facts.size(); ++k) {
    const auto& fact = facts[k];
    changes.push_back({fact.pet_id, 0,
                       [&fact](const Item& item, const Reservation&) { return decide_pet_fact(item, fact); },
                       steps[index[k]].trace});
  }
  auto begun = ledger_.begin_each(changes);
  BegunEach out{std::vector<std::exception_ptr>(steps.size()), std::move(begun.rest)};
  for (std::size_t k = 0; k < index.size(); ++k) {
    out.failed[index[k]] = begun.failed[k];
  }
  return out;
}

std::string PetsReaction::affinity(const kafka::Message& m) {
  return by_pet(m, read_pet_fact);
}

void OrdersReaction::handle(const kafka::Message& m) {
  handle_in_full(m);
}

projection::Reaction::Rest OrdersReaction::begin(const kafka::Message& m) {
  const auto fact = projection::read_upstream(m, "inventory", read_order_fact);
  if (!fact) {
    return {};
  }
  bool pet_never_seen = false;
  auto decide = [&](const Item& item, const Reservation& recorded) -> std::optional<Event> {
    if (fact->kind == OrderFact::Kind::Placed && item.pet_version == 0 && !pet_never_seen) {
      pet_never_seen = true;  // decide again once the pets reaction has caught up
      return std::nullopt;
    }
    return decide_order_fact(item, recorded, *fact);
  };
  auto rest = ledger_.begin(fact->pet_id, fact->order_id, decide);
  if (!pet_never_seen) {
    return rest;
  }
  rest();  // nothing was appended
  // Pets and orders are different topics: an order may arrive before the
  // pet's creation was mirrored. Only refuse an unknown pet once every pet
  // event appended so far to its partition has been handled. This waits
  // without the ledger's lock, which the pets reaction needs.
  pets_seen_.partition_end(pets_topic_, log_.partition_of(pets_topic_, fact->pet_id));
  ledger_.change(fact->pet_id, fact->order_id, decide);
  return {};
}

std::string OrdersReaction::affinity(const kafka::Message& m) {
  return by_pet(m, read_order_fact);
}

}  // namespace petstore::inventory
