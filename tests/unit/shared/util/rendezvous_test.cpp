#include "util/rendezvous.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

namespace petstore::util {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using Settled = Rendezvous<int, std::string>;

const auto kNothing = []() -> std::optional<std::string> { return std::nullopt; };

TEST(Rendezvous, AWaiterGetsTheValueOfferedForItsKeyAtOnce) {
  Settled r;
  auto ticket = r.expect(7);
  const auto start = Clock::now();
  std::thread producer([&] {
    std::this_thread::sleep_for(20ms);
    EXPECT_FALSE(r.offer(8, "other"));  // nobody expects 8: dropped
    EXPECT_TRUE(r.offer(7, "reserved"));
  });
  // A recheck far off: only the offer can end the wait early.
  const auto value = ticket.wait_until(Clock::now() + 10s, 10s, kNothing);
  producer.join();
  EXPECT_EQ(value, "reserved");
  EXPECT_LT(Clock::now() - start, 5s);
}

TEST(Rendezvous, AnOfferBeforeTheWaitIsKeptForIt) {
  Settled r;
  auto ticket = r.expect(1);
  EXPECT_TRUE(r.offer(1, "early"));
  EXPECT_EQ(ticket.wait_until(Clock::now() + 10s, 10s, kNothing), "early");
}

TEST(Rendezvous, AnOfferNobodyExpectsIsNotKeptForALaterTicket) {
  Settled r;
  EXPECT_FALSE(r.offer(1, "unexpected"));
  auto ticket = r.expect(1);
  EXPECT_EQ(ticket.wait_until(Clock::now() + 30ms, 10ms, kNothing), std::nullopt);
}

TEST(Rendezvous, EveryWaiterOnAKeyGetsTheValue) {
  Settled r;
  auto first = r.expect(3);
  auto second = r.expect(3);
  std::optional<std::string> a;
  std::optional<std::string> b;
  std::thread wa([&] { a = first.wait_until(Clock::now() + 10s, 10s, kNothing); });
  std::thread wb([&] { b = second.wait_until(Clock::now() + 10s, 10s, kNothing); });
  std::this_thread::sleep_for(10ms);
  r.offer(3, "rejected");
  wa.join();
  wb.join();
  EXPECT_EQ(a, "rejected");
  EXPECT_EQ(b, "rejected");
}

TEST(Rendezvous, LooksElsewhereEveryRecheckUntilItFindsTheValue) {
  Settled r;
  auto ticket = r.expect(5);
  std::atomic<int> looks{0};
  const auto value = ticket.wait_until(Clock::now() + 10s, 5ms, [&]() -> std::optional<std::string> {
    return ++looks == 3 ? std::optional<std::string>("from the read model") : std::nullopt;
  });
  EXPECT_EQ(value, "from the read model");
  EXPECT_EQ(looks, 3);
}

TEST(Rendezvous, GivesUpAtTheDeadline) {
  Settled r;
  auto ticket = r.expect(9);
  int looks = 0;
  const auto start = Clock::now();
  const auto value = ticket.wait_until(start + 60ms, 20ms, [&]() -> std::optional<std::string> {
    ++looks;
    return std::nullopt;
  });
  EXPECT_EQ(value, std::nullopt);
  EXPECT_GE(Clock::now() - start, 60ms);
  // At most every 20 ms, the last at the deadline (fewer on a loaded
  // machine, where a wake may come late).
  EXPECT_GE(looks, 1);
  EXPECT_LE(looks, 3);
}

TEST(Rendezvous, AKeyIsForgottenWithItsLastTicket) {
  Settled r;
  {
    auto first = r.expect(1);
    {
      auto second = r.expect(1);
      auto moved = std::move(second);  // a moved-from ticket gives nothing back
      EXPECT_EQ(r.expected(), 1U);
    }
    EXPECT_EQ(r.expected(), 1U);
    EXPECT_TRUE(r.offer(1, "still expected"));
  }
  EXPECT_EQ(r.expected(), 0U);
  EXPECT_FALSE(r.offer(1, "too late"));
}

TEST(Rendezvous, ATicketReplacedInItsOptionalGivesItsKeyBack) {
  // OrderCommands::place takes a ticket for each id the writer chooses.
  Settled r;
  std::optional<Settled::Ticket> ticket;
  ticket.emplace(r.expect(1));
  ticket.emplace(r.expect(2));
  EXPECT_EQ(r.expected(), 1U);
  EXPECT_FALSE(r.offer(1, "the retried id"));
  EXPECT_TRUE(r.offer(2, "the order"));
  EXPECT_EQ(ticket->key(), 2);
}

}  // namespace
}  // namespace petstore::util
