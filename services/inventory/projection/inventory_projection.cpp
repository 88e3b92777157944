#include "projection/inventory_projection.h"

#include "embedded/apply.lua.h"
#include "util/overloaded.h"

namespace petstore::inventory {
namespace {

struct EventFields {
  std::string pet_status;
  std::string pet_version;
  std::string quantity = "0";
  std::string order;
  std::string reason;
};

EventFields fields_of(const Event& event) {
  EventFields f;
  auto order = [&f](std::int64_t id, std::int64_t quantity) {
    f.order = std::to_string(id);
    f.quantity = std::to_string(quantity);
  };
  std::visit(Overloaded{
                 [&](const Tracked& e) {
                   f.pet_status = to_string(e.pet_status);
                   f.pet_version = std::to_string(e.pet_version);
                 },
                 [&](const PetStatusMirrored& e) {
                   f.pet_status = to_string(e.pet_status);
                   f.pet_version = std::to_string(e.pet_version);
                 },
                 [&](const Untracked& e) { f.pet_version = std::to_string(e.pet_version); },
                 [&](const StockSet& e) { f.quantity = std::to_string(e.quantity); },
                 [&](const Reserved& e) { order(e.order_id, e.quantity); },
                 [&](const Refused& e) {
                   order(e.order_id, e.quantity);
                   f.reason = to_string(e.reason);
                 },
                 [&](const Released& e) { order(e.order_id, e.quantity); },
                 [&](const Consumed& e) { order(e.order_id, e.quantity); },
             },
             event);
  return f;
}

}  // namespace

InventoryProjection::InventoryProjection(InventoryKeys keys)
    : ScriptApplier(keys.space(), kInventoryApplyLua, "inventory"), keys_(std::move(keys)) {}

std::vector<std::string> InventoryProjection::arguments(const Event& event, std::int64_t version,
                                                        const std::string& time) const {
  auto f = fields_of(event);
  return {std::string(type_of(event)), std::to_string(aggregate_of(event)),
          std::to_string(version),     time,
          std::move(f.pet_status),     std::move(f.pet_version),
          std::move(f.quantity),       std::move(f.order),
          std::move(f.reason)};
}

std::vector<std::string> InventoryProjection::event_arguments(const events::Envelope& envelope) const {
  const auto event = projection::decode_own_event(envelope, decode, aggregate_of);
  return arguments(event, envelope.version, envelope.time);
}

es::ApplyOutcome InventoryProjection::apply_own(redis::Connection& conn, const Event& event,
                                                const events::Envelope& envelope) const {
  return ScriptApplier::apply_own(conn, envelope, arguments(event, envelope.version, envelope.time));
}

}  // namespace petstore::inventory
