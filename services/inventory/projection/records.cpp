#include "inventory/projection/records.h"

#include <array>
#include <charconv>
#include <string>
#include <utility>

#include "redis/connection.h"

namespace petstore::inventory {
namespace {

// In the order the readers below take them.
constexpr std::array<std::string_view, 7> kItemFieldNames = {
    "tracked", "petStatus", "petVersion", "quantity", "reserved", "version", "updatedAt"};

using State = Reservation::State;
constexpr std::array<std::pair<State, std::string_view>, 4> kReservationStates = {
    {{State::Reserved, "reserved"},
     {State::Refused, "refused"},
     {State::Released, "released"},
     {State::Consumed, "consumed"}}};

std::int64_t integer_or_zero(const redisReply& r) {
  return r.type == REDIS_REPLY_NIL ? 0 : redis::as_integer(r);
}

}  // namespace

constinit const std::span<const std::string_view> kItemFields{kItemFieldNames};

Item item_from(std::int64_t pet, redisReply* const* v) {
  Item item;
  item.pet_id = pet;
  item.tracked = v[0]->type != REDIS_REPLY_NIL && redis::as_string(*v[0]) == "1";
  if (v[1]->type != REDIS_REPLY_NIL) {
    item.pet_status = parse_status(redis::as_string(*v[1])).value_or(PetStatus::Available);
  }
  item.pet_version = integer_or_zero(*v[2]);
  item.quantity = integer_or_zero(*v[3]);
  item.reserved = integer_or_zero(*v[4]);
  item.version = integer_or_zero(*v[5]);
  if (v[6]->type != REDIS_REPLY_NIL) {
    item.updated_at = std::string(redis::as_string(*v[6]));
  }
  item.status = effective_status(item.pet_status, item.quantity, item.reserved);
  return item;
}

std::optional<Reservation> reservation_from(const redisReply& field) {
  if (field.type == REDIS_REPLY_NIL) {
    return std::nullopt;
  }
  const auto text = redis::as_string(field);
  const auto colon = text.find(':');
  for (const auto& [state, name] : kReservationStates) {
    if (colon != std::string_view::npos && text.substr(0, colon) == name) {
      std::int64_t units = 0;
      const auto rest = text.substr(colon + 1);
      if (std::from_chars(rest.data(), rest.data() + rest.size(), units).ec != std::errc{}) {
        return std::nullopt;
      }
      return Reservation{state, units};
    }
  }
  return std::nullopt;
}

projection::Record ledger_record(const InventoryKeys& keys, const Ledger& ledger) {
  projection::Record r;
  const auto& item = ledger.item;
  if (item.version == 0) {
    return r;
  }
  r.fields = {{"tracked", item.tracked ? "1" : "0"},
              {"petStatus", std::string(to_string(item.pet_status))},
              {"petVersion", std::to_string(item.pet_version)},
              {"quantity", std::to_string(item.quantity)},
              {"reserved", std::to_string(item.reserved)},
              {"status", std::string(to_string(item.status))},
              {"updatedAt", item.updated_at}};
  // Lists and counts show tracked entries only, each under its status.
  if (item.tracked) {
    const auto id = std::to_string(item.pet_id);
    r.indexes.emplace(keys.all_items(), id);
    r.indexes.emplace(keys.items_by_status(item.status), id);
    r.counts.emplace(keys.counts(), std::string(to_string(item.status)));
  }
  const auto reservations = keys.reservations(item.pet_id);
  for (const auto& [order, reservation] : ledger.orders) {
    for (const auto& [state, name] : kReservationStates) {
      if (state == reservation.state) {
        r.entries.emplace(std::pair(reservations, std::to_string(order)),
                          std::string(name) + ":" + std::to_string(reservation.quantity));
      }
    }
  }
  return r;
}

}  // namespace petstore::inventory
