// kafka::GroupMembership against Apache Kafka: members of one group
// share a topic's partitions out between them, each partition to one
// member; a member that leaves hands its partitions on at once, not after
// its session times out.
#include "kafka/group_membership.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "support/stack.h"

namespace petstore::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr int kPartitions = 4;
// A leaver's partitions reach the others sooner than a silent member's: a
// LeaveGroup starts a rebalance at once, while a member gone silent is
// first dropped after session.timeout.ms without a heartbeat. Kafka ends
// the rebalance as soon as every member left has rejoined.
constexpr auto kSilentMemberHandOver = 11s;
constexpr auto kLeaverHandOverBound = 9s;

class GroupMembershipTest : public ::testing::Test {
 protected:
  GroupMembershipTest() { create_topic(topic_, kPartitions); }

  std::unique_ptr<kafka::GroupMembership> member(const std::string& name) {
    return std::make_unique<kafka::GroupMembership>(Stack::get().kafka_brokers, group_, name, topic_);
  }

  // Polls every member in turn until `done` holds of their assignments
  // (30 s at most). Returns the assignments.
  static std::vector<std::vector<std::int32_t>> poll_until(
      const std::vector<kafka::GroupMembership*>& members,
      const std::function<bool(const std::vector<std::vector<std::int32_t>>&)>& done) {
    const auto give_up = Clock::now() + 30s;
    std::vector<std::vector<std::int32_t>> now(members.size());
    while (Clock::now() < give_up) {
      for (std::size_t i = 0; i < members.size(); ++i) {
        now[i] = members[i]->poll(20ms);
      }
      if (done(now)) {
        return now;
      }
    }
    ADD_FAILURE() << "the group did not settle as expected";
    return now;
  }

  // Every partition assigned, each to one member, every member assigned.
  static bool shared_out(const std::vector<std::vector<std::int32_t>>& assignments) {
    std::set<std::int32_t> seen;
    std::size_t total = 0;
    for (const auto& a : assignments) {
      seen.insert(a.begin(), a.end());
      total += a.size();
    }
    return seen.size() == kPartitions && total == kPartitions;
  }

  std::string topic_ = unique_name("membership");
  std::string group_ = unique_name("membership-group");
};

TEST_F(GroupMembershipTest, MembersShareThePartitionsOutAndALeaverHandsItsOnAtOnce) {
  auto a = member("a");
  EXPECT_FALSE(a->assigned()) << "assigned before the group answered";
  auto alone = poll_until({a.get()}, [](const auto& now) { return shared_out(now); });
  EXPECT_EQ(alone[0], (std::vector<std::int32_t>{0, 1, 2, 3}));
  EXPECT_TRUE(a->assigned());

  auto b = member("b");
  const auto both = poll_until({a.get(), b.get()}, [](const auto& now) {
    return shared_out(now) && !now[0].empty() && !now[1].empty();
  });
  EXPECT_EQ(both[0].size(), 2U) << "the cooperative-sticky assignor balances two members";
  EXPECT_TRUE(std::ranges::is_sorted(both[0]) && std::ranges::is_sorted(both[1]));
  EXPECT_TRUE(a->assigned() && b->assigned());

  // b leaves the group (as a replica that stops does, before it goes; its
  // destructor leaves too): a has every partition again sooner than a
  // silent member's would reach it, and b, still there, is assigned none.
  static_assert(kLeaverHandOverBound < kSilentMemberHandOver);
  const auto left = Clock::now();
  b->leave();
  EXPECT_FALSE(b->assigned());
  const auto after = poll_until({a.get(), b.get()}, [](const auto& now) { return shared_out(now); });
  EXPECT_LT(Clock::now() - left, kLeaverHandOverBound);
  EXPECT_EQ(after[0], (std::vector<std::int32_t>{0, 1, 2, 3}));
  EXPECT_TRUE(after[1].empty()) << "a member that left is assigned nothing";
  b->leave();  // once is enough: a second leave does nothing
  b.reset();
}

}  // namespace
}  // namespace petstore::testing
