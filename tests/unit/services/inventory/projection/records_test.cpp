#include "inventory/projection/records.h"

#include <gtest/gtest.h>

namespace petstore::inventory {
namespace {

const InventoryKeys& keys() {
  static const InventoryKeys k("t");
  return k;
}

Ledger tracked(std::int64_t quantity, std::int64_t reserved) {
  Ledger l;
  l.item.pet_id = 3;
  l.item.tracked = true;
  l.item.quantity = quantity;
  l.item.reserved = reserved;
  l.item.status = effective_status(PetStatus::Available, quantity, reserved);
  l.item.version = 1;
  return l;
}

TEST(LedgerRecord, ATrackedEntryIsListedAndCountedUnderItsStatus) {
  const auto r = ledger_record(keys(), tracked(0, 2));
  EXPECT_EQ(r.indexes, (std::map<std::string, std::string>{
                           {keys().all_items(), "3"}, {keys().items_by_status(PetStatus::Pending), "3"}}));
  EXPECT_EQ(r.counts, (std::set<std::pair<std::string, std::string>>{{keys().counts(), "pending"}}));
}

TEST(LedgerRecord, AnUntrackedEntryIsInNoListButKeepsItsFields) {
  auto l = tracked(1, 0);
  l.item.tracked = false;
  const auto r = ledger_record(keys(), l);
  EXPECT_TRUE(r.indexes.empty());
  EXPECT_TRUE(r.counts.empty());
  EXPECT_FALSE(r.fields.empty());
}

TEST(LedgerRecord, EachOrdersReservationReadsBackAsItWasWritten) {
  auto l = tracked(1, 2);
  l.orders[10] = {Reservation::State::Reserved, 2};
  l.orders[11] = {Reservation::State::Refused, 5};
  const auto r = ledger_record(keys(), l);
  ASSERT_EQ(r.entries.size(), 2U);
  for (const auto& [where, text] : r.entries) {
    EXPECT_EQ(where.first, keys().reservations(3));
    redisReply reply{};
    reply.type = REDIS_REPLY_STRING;
    reply.str = const_cast<char*>(text.data());
    reply.len = text.size();
    const auto back = reservation_from(reply);
    ASSERT_TRUE(back) << text;
    const auto& original = l.orders.at(std::stoll(where.second));
    EXPECT_EQ(back->state, original.state);
    EXPECT_EQ(back->quantity, original.quantity);
  }
}

}  // namespace
}  // namespace petstore::inventory
