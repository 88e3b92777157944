#include "inventory/domain/evolve.h"

#include "util/overloaded.h"

namespace petstore::inventory {

namespace {

std::int64_t held_units(const Ledger& l, std::int64_t order) {
  const auto it = l.orders.find(order);
  return it != l.orders.end() && it->second.state == Reservation::State::Reserved ? it->second.quantity : 0;
}

}  // namespace

bool evolve(Ledger& l, const Event& event, std::int64_t version, const std::string& time) {
  auto& item = l.item;
  if (version <= item.version) {
    return false;
  }
  using State = Reservation::State;
  std::visit(Overloaded{
                 [&](const Tracked& e) {
                   item.pet_id = e.pet_id;
                   item.tracked = true;
                   item.pet_status = e.pet_status;
                   item.pet_version = e.pet_version;
                 },
                 [&](const PetStatusMirrored& e) {
                   item.pet_id = e.pet_id;
                   item.pet_status = e.pet_status;
                   item.pet_version = e.pet_version;
                 },
                 [&](const Untracked& e) {
                   item.pet_id = e.pet_id;
                   item.tracked = false;
                   item.pet_version = e.pet_version;
                 },
                 [&](const StockSet& e) {
                   item.pet_id = e.pet_id;
                   item.quantity = e.quantity;
                 },
                 [&](const Reserved& e) {
                   item.pet_id = e.pet_id;
                   item.quantity -= e.quantity;
                   item.reserved += e.quantity;
                   l.orders[e.order_id] = {State::Reserved, e.quantity};
                 },
                 [&](const Refused& e) {
                   item.pet_id = e.pet_id;
                   l.orders[e.order_id] = {State::Refused, e.quantity};
                 },
                 [&](const Released& e) {
                   item.pet_id = e.pet_id;
                   const auto units = held_units(l, e.order_id);
                   item.quantity += units;
                   item.reserved -= units;
                   l.orders[e.order_id] = {State::Released, units};
                 },
                 [&](const Consumed& e) {
                   item.pet_id = e.pet_id;
                   const auto units = held_units(l, e.order_id);
                   item.reserved -= units;
                   l.orders[e.order_id] = {State::Consumed, units};
                 },
             },
             event);
  item.status = effective_status(item.pet_status, item.quantity, item.reserved);
  item.version = version;
  item.updated_at = time;
  return true;
}

}  // namespace petstore::inventory
