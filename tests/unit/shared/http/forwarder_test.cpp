// http::Forwarder over real sockets: two httplib servers on loopback, one
// the owner of a partition, the other a replica that gets a command for it
// and sends it on (Router::rescue on es::Errc::NotOwner), once.
#include "http/forwarder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "es/errc.h"
#include "http/response.h"
#include "http/router.h"
#include "support/loopback_connection.h"
#include "support/loopback_server.h"

namespace petstore::http {
namespace {

using Replica = testing::LoopbackServer;

// A replica's rescue, as service::Platform sets it.
void forward_to_owner(Router& router, const Forwarder& forwarder) {
  router.rescue(
      [&forwarder](const httplib::Request& req, httplib::Response& res, const std::exception_ptr& failure) {
        return forwarder.rescue(req, res, failure);
      });
}

TEST(Forwarder, SendsACommandOnToTheOwnerOnceAndRelaysItsAnswer) {
  const auto trusted = TrustedProxies::parse("127.0.0.0/8");
  Router owner_routes;
  owner_routes.add(
      "POST", "/pets/{petId}", [&](const httplib::Request& req, httplib::Response& res, const PathParams&) {
        EXPECT_EQ(req.body, R"({"name":"Rex"})");
        EXPECT_EQ(req.get_header_value("If-Match"), "\"3\"");
        EXPECT_EQ(req.get_header_value("X-API-Key"), "psk_x");
        EXPECT_TRUE(Forwarder::forwarded_by_trusted(req, trusted));
        EXPECT_EQ(client_address(req, trusted), "203.0.113.9") << "the client, as the first replica saw it";
        res.set_header("ETag", "\"4\"");
        send_json(res, 201, R"({"id":7})");
      });
  Replica owner(owner_routes);

  Router routes;
  routes.add("POST", "/pets/{petId}", [&](const httplib::Request&, httplib::Response&, const PathParams&) {
    throw es::Error(es::Errc::NotOwner, "not here").with_owner_hint(owner.url());
  });
  const Forwarder forwarder({.self = "http://replica-a"});
  forward_to_owner(routes, forwarder);
  Replica replica(routes);

  httplib::Client client(replica.url());
  const auto res = client.Post(
      "/pets/7?x=1", {{"If-Match", "\"3\""}, {"X-API-Key", "psk_x"}, {"X-Forwarded-For", "203.0.113.9"}},
      R"({"name":"Rex"})", "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 201);
  EXPECT_EQ(res->body, R"({"id":7})");
  EXPECT_EQ(res->get_header_value("ETag"), "\"4\"");
}

TEST(Forwarder, AForwardCarriesADeadlineThatExpiresAfterStartWithin) {
  httplib::Request seen;
  Router owner_routes;
  owner_routes.add("POST", "/pets/{petId}",
                   [&](const httplib::Request& req, httplib::Response& res, const PathParams&) {
                     seen = req;
                     send_json(res, 200, "{}");
                   });
  Replica owner(owner_routes);
  Router routes;
  routes.add("POST", "/pets/{petId}", [&](const httplib::Request&, httplib::Response&, const PathParams&) {
    throw es::Error(es::Errc::NotOwner, "not here").with_owner_hint(owner.url());
  });
  const Forwarder forwarder({.start_within = std::chrono::seconds(2), .self = "http://replica-a"});
  forward_to_owner(routes, forwarder);
  Replica replica(routes);

  httplib::Client client(replica.url());
  const auto sent = std::chrono::system_clock::now();
  // A client's own deadline header is not relayed: the forwarder sets it.
  const auto res =
      client.Post("/pets/7", {{Forwarder::kDeadlineHeader, "99999999999999"}}, "{}", "application/json");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200);
  EXPECT_EQ(seen.get_header_value_count(Forwarder::kDeadlineHeader), 1U);
  EXPECT_FALSE(Forwarder::expired(seen, sent));
  EXPECT_FALSE(Forwarder::expired(seen, sent + std::chrono::milliseconds(1500)));
  EXPECT_TRUE(Forwarder::expired(seen, std::chrono::system_clock::now() + std::chrono::milliseconds(2001)));

  // And a relayed reaction step (send) carries one too.
  Router step_routes;
  step_routes.add("POST", "/internal/reactions/{purpose}",
                  [&](const httplib::Request& req, httplib::Response& answer, const PathParams&) {
                    seen = req;
                    answer.status = 204;
                  });
  Replica step_owner(step_routes);
  EXPECT_EQ(forwarder.send(step_owner.url(), "/internal/reactions/x", "r", "text/plain"), 204);
  EXPECT_FALSE(Forwarder::expired(seen, std::chrono::system_clock::now()));
  EXPECT_TRUE(Forwarder::expired(seen, std::chrono::system_clock::now() + std::chrono::seconds(3)));
}

TEST(Forwarder, SendsARequestsBodyWithoutWaitingForThePeersAck) {
  // cpp-httplib's client writes a request's head and its body in two
  // writes. Without TCP_NODELAY, Nagle's algorithm holds the body until
  // the head is acknowledged, and the owner's kernel delays that ACK by at
  // least 40 ms (Linux's TCP_DELACK_MIN) once a connection has left its
  // quick-ACK start: every relayed saga step and forwarded command waited
  // about 45 ms, so an order placed on one replica of `scripts/up` took
  // 95 ms where one placed on the other took 12 ms. The owner here is a
  // bare socket that times each request's head against its body's end.
  const testing::LoopbackListener listening;
  const auto url = "http://127.0.0.1:" + std::to_string(listening.port());
  const std::string body(200, 'b');
  constexpr int kRequests = 8;

  std::vector<std::chrono::steady_clock::duration> waits;  // head seen to body complete
  std::thread owner([&] {
    const testing::Fd conn{::accept(listening.listener.fd, nullptr, nullptr)};
    std::string in;
    for (int i = 0; i < kRequests; ++i) {
      std::optional<std::chrono::steady_clock::time_point> head_seen;
      for (;;) {
        const auto end = in.find("\r\n\r\n");
        if (end != std::string::npos && !head_seen) {
          head_seen = std::chrono::steady_clock::now();
        }
        if (end != std::string::npos && in.size() >= end + 4 + body.size()) {
          waits.push_back(std::chrono::steady_clock::now() - *head_seen);
          in.erase(0, end + 4 + body.size());
          break;
        }
        char buf[4096];
        const auto n = ::recv(conn.fd, buf, sizeof(buf), 0);
        if (n <= 0) {
          return;
        }
        in.append(buf, static_cast<size_t>(n));
      }
      const std::string answer = "HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n";
      ASSERT_EQ(::send(conn.fd, answer.data(), answer.size(), MSG_NOSIGNAL),
                static_cast<ssize_t>(answer.size()));
    }
  });
  const Forwarder forwarder({.self = "http://replica-a"});
  for (int i = 0; i < kRequests; ++i) {
    EXPECT_EQ(forwarder.send(url, "/internal/reactions/x", body, "application/octet-stream"), 204);
  }
  owner.join();
  ASSERT_EQ(waits.size(), static_cast<size_t>(kRequests));
  // The median, so one wake-up late on a loaded machine cannot decide it.
  std::ranges::sort(waits);
  EXPECT_LT(waits[kRequests / 2], std::chrono::milliseconds(20))
      << "the body waited for an ACK of the head: Nagle's algorithm is on";
}

TEST(Forwarder, ARelayedStepGivesUpSoonerThanAForwardedCommand) {
  Router owner_routes;
  const auto slow = [](const httplib::Request&, httplib::Response& res, const PathParams&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    res.status = 204;
  };
  owner_routes.add("POST", "/internal/reactions/{purpose}", slow);
  owner_routes.add("POST", "/pets/{petId}", slow);
  Replica owner(owner_routes);
  Router routes;
  routes.add("POST", "/pets/{petId}", [&](const httplib::Request&, httplib::Response&, const PathParams&) {
    throw es::Error(es::Errc::NotOwner, "not here").with_owner_hint(owner.url());
  });
  const Forwarder forwarder({.read_timeout = std::chrono::seconds(5),
                             .relay_timeout = std::chrono::milliseconds(200),
                             .self = "http://replica-a"});
  forward_to_owner(routes, forwarder);
  Replica replica(routes);

  // The step is retried by its reactor: no answer within relay_timeout.
  EXPECT_EQ(forwarder.send(owner.url(), "/internal/reactions/x", "r", "text/plain"), std::nullopt);
  // A command's client waits for the owner's answer (read_timeout).
  httplib::Client client(replica.url());
  client.set_read_timeout(std::chrono::seconds(10));
  const auto res = client.Post("/pets/7", "{}", "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 204);
}

// An owner that takes a write and does not answer within the forward's
// read timeout may still commit it (frozen in the middle of its append):
// the answer says the outcome is unknown, never "nothing written". An
// owner that cannot be reached ran nothing (the test below).
TEST(Forwarder, AWriteTheOwnerTookAndDidNotAnswerInTimeHasAnUnknownOutcome) {
  Router owner_routes;
  owner_routes.add("POST", "/pets/{petId}",
                   [](const httplib::Request&, httplib::Response& res, const PathParams&) {
                     std::this_thread::sleep_for(std::chrono::milliseconds(600));
                     res.status = 200;
                   });
  Replica owner(owner_routes);
  Router routes;
  routes.add("POST", "/pets/{petId}", [&](const httplib::Request&, httplib::Response&, const PathParams&) {
    throw es::Error(es::Errc::NotOwner, "not here").with_owner_hint(owner.url());
  });
  const Forwarder forwarder({.read_timeout = std::chrono::milliseconds(200), .self = "http://replica-a"});
  forward_to_owner(routes, forwarder);
  Replica replica(routes);
  httplib::Client client(replica.url());
  const auto res = client.Post("/pets/7", "{}", "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 503);
  EXPECT_NE(res->body.find("outcome_unknown"), std::string::npos) << res->body;
  EXPECT_FALSE(res->has_header("Retry-After"));
}

TEST(Forwarder, OnlyAForwardedRequestExpiresAndABadDeadlineCountsAsPassed) {
  const auto now = std::chrono::system_clock::now();
  const auto ms = [](std::chrono::system_clock::time_point t) {
    return std::to_string(
        std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count());
  };
  httplib::Request req;
  req.set_header(Forwarder::kDeadlineHeader, ms(now - std::chrono::seconds(1)));
  EXPECT_FALSE(Forwarder::expired(req, now)) << "not forwarded: a client's header means nothing";
  req.set_header(Forwarder::kForwardedHeader, "http://peer");
  EXPECT_TRUE(Forwarder::expired(req, now));
  for (const char* bad : {"", "soon", "12x", "-", "99999999999999999999999"}) {
    httplib::Request r;
    r.set_header(Forwarder::kForwardedHeader, "http://peer");
    r.set_header(Forwarder::kDeadlineHeader, bad);
    EXPECT_TRUE(Forwarder::expired(r, now)) << '"' << bad << '"';
  }
  httplib::Request fresh;
  fresh.set_header(Forwarder::kForwardedHeader, "http://peer");
  EXPECT_FALSE(Forwarder::expired(fresh, now)) << "no deadline: a peer of an older build";
  fresh.set_header(Forwarder::kDeadlineHeader, ms(now + std::chrono::seconds(1)));
  EXPECT_FALSE(Forwarder::expired(fresh, now));
}

TEST(Forwarder, NeverForwardsTwiceAndAnswersItselfWhenTheOwnerIsGone) {
  // Two replicas that each name the other as the owner: one hop, then 503.
  Router a_routes;
  Router b_routes;
  Replica a(a_routes);
  Replica b(b_routes);
  a_routes.add("POST", "/pets/{petId}", [&](const httplib::Request&, httplib::Response&, const PathParams&) {
    throw es::Error(es::Errc::NotOwner, "not a").with_owner_hint(b.url());
  });
  b_routes.add("POST", "/pets/{petId}", [&](const httplib::Request&, httplib::Response&, const PathParams&) {
    throw es::Error(es::Errc::NotOwner, "not b").with_owner_hint(a.url());
  });
  const Forwarder forwarder_a({.self = a.url()});
  const Forwarder forwarder_b({.self = b.url()});
  forward_to_owner(a_routes, forwarder_a);
  forward_to_owner(b_routes, forwarder_b);

  httplib::Client client(a.url());
  auto res = client.Post("/pets/7", "{}", "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 503) << "b answered the forwarded request itself";
  EXPECT_NE(res->body.find("writer_moving"), std::string::npos) << res->body;

  // An owner that does not answer: the replica answers for itself.
  Router c_routes;
  c_routes.add("POST", "/pets/{petId}", [&](const httplib::Request&, httplib::Response&, const PathParams&) {
    throw es::Error(es::Errc::NotOwner, "not c").with_owner_hint("http://127.0.0.1:1");
  });
  const Forwarder forwarder_c({.self = "http://replica-c"});
  forward_to_owner(c_routes, forwarder_c);
  Replica c(c_routes);
  httplib::Client to_c(c.url());
  res = to_c.Post("/pets/7", "{}", "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 503);
  EXPECT_NE(res->body.find("writer_moving"), std::string::npos) << "nothing was sent: " << res->body;
  EXPECT_EQ(res->get_header_value("Retry-After"), "1");
}

}  // namespace
}  // namespace petstore::http
