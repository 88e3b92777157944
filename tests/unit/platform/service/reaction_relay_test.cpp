// service::ReactionRelay over real sockets: a replica whose reactor reads an
// event for an aggregate another replica writes relays the step to that
// owner, which takes it at POST /internal/reactions/{purpose} from trusted
// peers only.
#include "service/reaction_relay.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <stdexcept>
#include <vector>

#include "es/errc.h"
#include "kafka/message_frame.h"
#include "support/loopback_server.h"

namespace petstore::service {
namespace {

// A reaction that records what it handled, or throws what `fail` says.
class Recording : public projection::Reaction {
 public:
  std::function<void()> fail = [] {};
  std::vector<kafka::Message> handled;
  void handle(const kafka::Message& m) override {
    fail();
    handled.push_back(m);
  }
};

kafka::Message event() {
  kafka::Message m;
  m.topic = "petstore.inventory.v1";
  m.partition = 4;
  m.offset = 17;
  m.key = "42";
  m.value = R"({"orderId":7,"petId":42})";
  m.headers = {{"ce_type", "io.petstore.inventory.reserved"}, {"petstore_request", "3"}};
  return m;
}

// The owner: its local reaction behind the relay's route.
struct Owner {
  explicit Owner(const std::string& trusted_net) : trusted(http::TrustedProxies::parse(trusted_net)) {
    reactions["outcome-reactor"] = &local;
    add_reaction_route(routes, reactions, trusted);
  }
  Recording local;
  std::map<std::string, projection::Reaction*> reactions;
  http::TrustedProxies trusted;
  http::Router routes;
  testing::LoopbackServer server{routes};
};

TEST(ReactionRelay, HandlesAStepLocallyWhenThisReplicaOwnsItsAggregate) {
  Recording local;
  const http::Forwarder forwarder({.self = "http://replica-a"});
  ReactionRelay relay("outcome-reactor", local, forwarder);
  relay.handle(event());
  ASSERT_EQ(local.handled.size(), 1U);
  EXPECT_EQ(local.handled[0].key, "42");
}

// The reactor batches a relayed reaction as the local one asks: begun
// together, and gathered under load for the local reaction's window.
TEST(ReactionRelay, BatchesAsTheLocalReactionDoes) {
  class Gathering : public Recording {
   public:
    [[nodiscard]] bool begins_together() const override { return true; }
    [[nodiscard]] std::chrono::milliseconds gather() const override { return std::chrono::milliseconds(50); }
  };
  Gathering gathering;
  Recording plain;
  const http::Forwarder forwarder({.self = "http://replica-a"});
  const ReactionRelay relayed("pets-reactor", gathering, forwarder);
  const ReactionRelay relayed_plain("orders-reactor", plain, forwarder);
  EXPECT_TRUE(relayed.begins_together());
  EXPECT_EQ(relayed.gather(), std::chrono::milliseconds(50));
  EXPECT_FALSE(relayed_plain.begins_together());
  EXPECT_EQ(relayed_plain.gather(), std::chrono::milliseconds::zero());
}

TEST(ReactionRelay, RelaysAStepToTheOwnerWithTheRecordAsTheLogHoldsIt) {
  Owner owner("127.0.0.0/8");
  Recording local;
  local.fail = [&] { throw es::Error(es::Errc::NotOwner, "not here").with_owner_hint(owner.server.url()); };
  const http::Forwarder forwarder({.self = "http://replica-a"});
  ReactionRelay relay("outcome-reactor", local, forwarder);

  relay.handle(event());
  EXPECT_TRUE(local.handled.empty());
  ASSERT_EQ(owner.local.handled.size(), 1U);
  const auto& got = owner.local.handled[0];
  const auto sent = event();
  EXPECT_EQ(kafka::frame(got), kafka::frame(sent)) << "topic, position, key, value and headers alike";
}

TEST(ReactionRelay, ThrowsWhenTheOwnerDoesNotTakeTheStepSoTheReactorRetries) {
  Owner owner("127.0.0.0/8");
  // The owner has lost the partition since: it answers 503 and does not
  // relay a second time.
  owner.local.fail = [] {
    throw es::Error(es::Errc::NotOwner, "moved").with_owner_hint("http://127.0.0.1:1");
  };
  Recording local;
  local.fail = [&] { throw es::Error(es::Errc::NotOwner, "not here").with_owner_hint(owner.server.url()); };
  const http::Forwarder forwarder({.self = "http://replica-a"});
  ReactionRelay relay("outcome-reactor", local, forwarder);
  EXPECT_THROW(relay.handle(event()), std::runtime_error);

  // An owner that cannot be reached, and a NotOwner with no hint.
  local.fail = [] { throw es::Error(es::Errc::NotOwner, "gone").with_owner_hint("http://127.0.0.1:1"); };
  EXPECT_THROW(relay.handle(event()), std::runtime_error);
  local.fail = [] { throw es::Error(es::Errc::NotOwner, "no one yet"); };
  EXPECT_THROW(relay.handle(event()), es::Error);
}

TEST(ReactionRelay, TheOwnersRouteHearsTrustedPeersOnly) {
  Owner owner("10.0.0.0/8");  // loopback is not trusted here
  httplib::Client client(owner.server.url());
  const auto body = kafka::frame(event());
  auto r = client.Post(ReactionRelay::path("outcome-reactor"), {{http::Forwarder::kForwardedHeader, "x"}},
                       body, "application/vnd.petstore.record");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404) << "as for a path that does not exist";
  EXPECT_NE(r->body.find("route_not_found"), std::string::npos) << r->body;
  EXPECT_TRUE(owner.local.handled.empty());
}

TEST(ReactionRelay, TheOwnersRouteRefusesABadFrameAndAnUnknownReaction) {
  Owner owner("127.0.0.0/8");
  httplib::Client client(owner.server.url());
  const httplib::Headers relayed{{http::Forwarder::kForwardedHeader, "http://replica-a"}};
  auto r =
      client.Post(ReactionRelay::path("outcome-reactor"), relayed, "1:t,", "application/vnd.petstore.record");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400) << r->body;
  r = client.Post(ReactionRelay::path("no-such-reactor"), relayed, kafka::frame(event()),
                  "application/vnd.petstore.record");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404) << r->body;
  EXPECT_TRUE(owner.local.handled.empty());
}

}  // namespace
}  // namespace petstore::service
