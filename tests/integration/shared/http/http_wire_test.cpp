// The HTTP server itself (cpp-httplib's, as http::Server configures it),
// spoken to over raw sockets: pipelining, 100 Continue, chunked bodies, HEAD,
// HTTP/1.0, malformed requests (an Error body, then the connection closes),
// idle connections and stalled bodies given up on time, more connections
// than workers and queue (503 overloaded at once), and a graceful stop.
// docs/reliability.md's table covers the hostile inputs.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

#include "support/http_json.h"
#include "support/raw_http.h"
#include "support/service_process.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

class HttpWire : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // Few workers and a short queue, so overload is reached with a few
    // dozen connections; short timeouts; three Redis lanes, so replies come
    // back on several threads.
    deployment_ = std::make_unique<PetsDeployment>(
        1, std::map<std::string, std::string>{{"HTTP_THREADS", "4"},
                                              {"HTTP_MAX_QUEUED", "4"},
                                              {"HTTP_KEEPALIVE_TIMEOUT_S", "1"},
                                              {"HTTP_READ_TIMEOUT_S", "1"},
                                              {"REDIS_LANES", "3"}});
  }
  static void TearDownTestSuite() { deployment_.reset(); }

  static int port() { return deployment_->replica(0).port(); }
  static std::string key_header() { return "X-API-Key: " + deployment_->api_key() + "\r\n"; }
  static std::string get(const std::string& path, const std::string& extra = "") {
    return "GET " + path + " HTTP/1.1\r\nHost: t\r\n" + key_header() + extra + "\r\n";
  }
  static std::int64_t new_pet() {
    auto http = deployment_->replica(0).client();
    const auto cat = id_of(post_json(*http, "/categories", R"({"name":"Wire"})"));
    return id_of(post_json(*http, "/pets", R"({"name":"Rex","categoryId":)" + std::to_string(cat) + "}"));
  }

  static std::unique_ptr<PetsDeployment> deployment_;
};

std::unique_ptr<PetsDeployment> HttpWire::deployment_;

// One connection, request after request (not pipelined: cpp-httplib 0.11
// reads ahead into a buffer it drops after each request, so bytes of a
// second request sent before the first answer are lost; nginx, in front of
// every deployment, never pipelines to a replica: docs/http-server.md).
TEST_F(HttpWire, KeptAliveConnectionsServeRequestAfterRequest) {
  const auto a = std::to_string(new_pet());
  const auto b = std::to_string(new_pet());
  RawConnection c(port());
  ASSERT_TRUE(c.connected());
  c.send(get("/pets/" + a + "/profile"));
  auto r = c.next();
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("\"id\":" + a), std::string::npos);
  c.send(get("/pets/" + b));
  r = c.next();
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("\"id\":" + b), std::string::npos);
  EXPECT_NE(r.head.find("Deprecation: @"), std::string::npos);
  c.send(get("/nowhere"));
  r = c.next();
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.body.find("route_not_found"), std::string::npos);
  c.send(get("/categories?limit=1"));
  EXPECT_EQ(c.next().status, 200);
}

// A response's head and body leave in one segment (http/response_cork.h):
// a replica killed between cpp-httplib's two writes would otherwise leave
// nginx holding a head it has forwarded and no body, a read it cannot retry.
TEST_F(HttpWire, EachResponseArrivesInOneSegment) {
  const auto path = "/pets/" + std::to_string(new_pet());
  RawConnection c(port());
  ASSERT_TRUE(c.connected());
  c.send(get(path));
  ASSERT_EQ(c.next().status, 200);
  const auto before = c.data_segments_in();
  const std::uint32_t requests = 20;
  for (std::uint32_t i = 0; i < requests; ++i) {
    c.send(get(path));
    const auto r = c.next();
    ASSERT_EQ(r.status, 200);
    ASSERT_FALSE(r.body.empty());
  }
  EXPECT_EQ(c.data_segments_in() - before, requests);
}

TEST_F(HttpWire, ExpectContinueGetsAnInterimResponseBeforeTheBody) {
  RawConnection c(port());
  const std::string body = R"({"name":"Continued"})";
  c.send("POST /categories HTTP/1.1\r\nHost: t\r\n" + key_header() +
         "Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n");
  EXPECT_EQ(c.next(true).status, 100);
  c.send(body);
  const auto r = c.next();
  EXPECT_EQ(r.status, 201) << r.body;
  EXPECT_NE(r.body.find("Continued"), std::string::npos);
}

TEST_F(HttpWire, ChunkedBodiesAreAccepted) {
  RawConnection c(port());
  c.send("POST /categories HTTP/1.1\r\nHost: t\r\n" + key_header() +
         "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
         "9\r\n{\"name\":\"\r\n7\r\nChunked\r\n2\r\n\"}\r\n0\r\n\r\n");
  const auto r = c.next();
  EXPECT_EQ(r.status, 201) << r.body;
  EXPECT_NE(r.body.find("\"name\":\"Chunked\""), std::string::npos);
}

TEST_F(HttpWire, HeadIsFramedLikeGetWithoutTheBody) {
  const auto id = std::to_string(new_pet());
  RawConnection c(port());
  c.send("HEAD /pets/" + id + "/profile HTTP/1.1\r\nHost: t\r\n" + key_header() + "\r\n");
  const auto head = c.next(true);
  EXPECT_EQ(head.status, 200);
  c.send(get("/pets/" + id + "/profile"));
  const auto get_response = c.next();
  EXPECT_EQ(get_response.status, 200);
  EXPECT_NE(head.head.find("Content-Length: " + std::to_string(get_response.body.size())), std::string::npos);
}

TEST_F(HttpWire, Http10ClosesAfterTheResponse) {
  const auto id = std::to_string(new_pet());
  RawConnection c(port());
  c.send("GET /pets/" + id + "/profile HTTP/1.0\r\n" + key_header() + "\r\n");
  const auto r = c.next();
  EXPECT_EQ(r.status, 200);
  c.set_timeout(std::chrono::milliseconds(500));
  EXPECT_TRUE(c.closed_by_server());  // HTTP/1.0 without keep-alive: closed at once
}

TEST_F(HttpWire, MalformedRequestsGetAnErrorBodyThenTheConnectionCloses) {
  const std::vector<std::pair<std::string, int>> cases = {
      {"GET /pets HTTP/2.0\r\n\r\n", 505},
      {"GET /pets\r\n\r\n", 400},
      {"GET /pets HTTP/1.1\r\nHost: t\r\nNoColon\r\n\r\n", 400},
      {"GET /pets HTTP/1.1\r\nHost: t\r\nX-A: 1\r\n folded\r\n\r\n", 400},
      {"GET /pets HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(20'000, 'x') + "\r\n\r\n", 431},
      {"POST /pets HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 30000\r\n\r\n" +
           std::string(30'000, 'x'),
       413},
      {"POST /pets HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n\r\n", 400},
      {"GET /pets HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabcGET /pets HTTP/1.1\r\nHost: t\r\n\r\n",
       400},
  };
  for (const auto& [wire, status] : cases) {
    RawConnection c(port());
    c.send(wire);
    const auto r = c.next();
    EXPECT_EQ(r.status, status) << wire.substr(0, 40);
    EXPECT_NE(r.body.find("\"status\":" + std::to_string(status)), std::string::npos) << r.body;
    EXPECT_EQ(r.header("Connection"), "close") << wire.substr(0, 40);
    // Closed by the server at once, not by the keep-alive timeout: whatever
    // followed (the smuggled GET of the last case) is never read.
    c.set_timeout(std::chrono::milliseconds(500));
    EXPECT_TRUE(c.closed_by_server()) << wire.substr(0, 40);
  }
}

TEST_F(HttpWire, AnIdleConnectionIsClosedAfterTheKeepAliveTimeout) {
  RawConnection c(port());
  c.send(get("/healthz"));
  EXPECT_EQ(c.next().status, 200);
  const auto before = std::chrono::steady_clock::now();
  EXPECT_TRUE(c.closed_by_server());  // HTTP_KEEPALIVE_TIMEOUT_S=1, swept within a second more
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(4));
}

TEST_F(HttpWire, ABodyThatStopsArrivingIsGivenUpAtTheReadTimeout) {
  RawConnection c(port());
  const auto before = std::chrono::steady_clock::now();
  c.send("POST /categories HTTP/1.1\r\nHost: t\r\n" + key_header() +
         "Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"name\"");
  const auto r = c.next();  // HTTP_READ_TIMEOUT_S=1
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_TRUE(c.closed_by_server());
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::milliseconds(3500));
}

// A replica of its own, stopped with SIGTERM while a client holds an idle
// keep-alive connection: new connections are refused at once, the idle
// connection is ended as soon as no request is being handled (not after
// HTTP_KEEPALIVE_TIMEOUT_S: http::Server::end_connections), and the process
// exits soon after. A request answered during the stop carries
// Connection: close (pets_stop_test, http::Server::closing).
TEST(HttpWireStop, AStoppingReplicaRefusesNewConnectionsAndEndsIdleOnes) {
  PetsDeployment own(1, {{"HTTP_KEEPALIVE_TIMEOUT_S", "120"}});
  auto& replica = own.replica(0);
  RawConnection open_connection(replica.port(), std::chrono::seconds(10));
  const auto get = "GET /categories?limit=1 HTTP/1.1\r\nHost: t\r\nX-API-Key: " + own.api_key() + "\r\n\r\n";
  open_connection.send(get);
  const auto first = open_connection.next();
  ASSERT_EQ(first.status, 200);
  ASSERT_NE(first.header("Connection"), "close") << "kept alive";

  const auto signalled = std::chrono::steady_clock::now();
  ASSERT_EQ(::kill(replica.pid(), SIGTERM), 0);
  EXPECT_TRUE(open_connection.closed_by_server()) << "the idle connection was kept";
  EXPECT_FALSE(RawConnection(replica.port()).connected()) << "still accepting after the stop";

  replica.wait_exit(std::chrono::seconds(10));
  EXPECT_LT(std::chrono::steady_clock::now() - signalled, std::chrono::milliseconds(4500))
      << "the replica did not exit promptly after SIGTERM";
}

// cpp-httplib serves a connection on one worker for as long as it is open.
// With 4 workers and 4 places in the queue, 40 connections that each send a
// request: the ones past the queue are answered 503 overloaded at once (with
// Retry-After, and closed), the rest in turn as workers come free; none waits
// unanswered.
TEST_F(HttpWire, ConnectionsBeyondWorkersAndQueueAreToldOverloadedAtOnce) {
  const auto id = std::to_string(new_pet());
  // new_pet's connection is closed, but its worker counts as room again only
  // once it is back waiting for a connection: give it that moment, or the
  // burst meets three free workers, not four.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  std::vector<std::unique_ptr<RawConnection>> connections;
  for (int i = 0; i < 40; ++i) {
    connections.push_back(std::make_unique<RawConnection>(port(), std::chrono::seconds(10)));
    ASSERT_TRUE(connections.back()->connected());
    connections.back()->send(get("/pets/" + id + "/profile"));
  }
  int ok = 0;
  int overloaded = 0;
  for (auto& c : connections) {
    const auto r = c->next();
    if (r.status == 200) {
      ++ok;
    } else if (r.status == 503) {
      ++overloaded;
      EXPECT_NE(r.body.find("overloaded"), std::string::npos) << r.body;
      EXPECT_EQ(r.header("Retry-After"), "1");
    }
    c.reset();  // the client closes: its worker is free for the next
  }
  EXPECT_EQ(ok + overloaded, 40);
  EXPECT_GE(ok, 8);
  EXPECT_GE(overloaded, 1);
}

// HTTP_UNIX_SOCKET: the same API on a Unix socket beside the port, for an
// entry point on this host (scripts/up). A peer there counts as 127.0.0.1,
// so its X-Forwarded-For is believed exactly when loopback is trusted. A
// replica replaces the file a dead one left (scripts/up's supervisor
// restarts a replica on the same path); a second replica cannot take the
// socket a live one serves on; a replica that stops removes its file.
TEST(HttpWireUnixSocket, ServesOnAUnixSocketWhosePeersCountAsLoopback) {
  const auto dir = std::filesystem::temp_directory_path() / unique_name("sockets");
  std::filesystem::create_directories(dir);
  const auto trusted_path = (dir / "trusting.sock").string();
  const auto untrusted_path = (dir / "untrusting.sock").string();
  const auto over = [](const std::string& path) {
    auto c = std::make_unique<httplib::Client>(path);  // not a URL: the path is the host
    c->set_address_family(AF_UNIX);
    c->set_read_timeout(10, 0);
    c->set_default_headers({{"Host", "localhost"}});
    return c;
  };
  // The file a replica that died would leave: bound, and nobody listening.
  {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    ASSERT_LT(trusted_path.size(), sizeof(addr.sun_path));
    std::copy(trusted_path.begin(), trusted_path.end(), static_cast<char*>(addr.sun_path));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)),
              0);  // NOLINT(*-reinterpret-cast)
    ::close(fd);
    ASSERT_TRUE(std::filesystem::exists(trusted_path));
  }
  {
    PetsDeployment trusting(1, {{"HTTP_UNIX_SOCKET", trusted_path}});
    PetsDeployment untrusting(1, {{"HTTP_UNIX_SOCKET", untrusted_path}, {"TRUSTED_PROXIES", "192.0.2.1/32"}});

    auto c = over(trusted_path);
    auto r = c->Get("/readyz");
    ASSERT_TRUE(r) << httplib::to_string(r.error());
    EXPECT_EQ(r->status, 200);
    // Keyless requests count against the client's address: each forwarded
    // address has a budget of its own (60 a minute for an address).
    for (int i = 0; i < 3; ++i) {
      r = c->Get("/pets", {{"X-Forwarded-For", "203.0.113." + std::to_string(i)}});
      ASSERT_TRUE(r);
      EXPECT_EQ(r->status, 401);
      EXPECT_EQ(r->get_header_value("X-RateLimit-Remaining"), "59") << "request " << i;
    }
    // Where loopback is not trusted, the header is not believed from the
    // socket either: every request counts against 127.0.0.1.
    auto u = over(untrusted_path);
    int limited = 0;
    for (int i = 0; i < 61; ++i) {
      r = u->Get("/pets", {{"X-Forwarded-For", "198.51.100." + std::to_string(i)}});
      ASSERT_TRUE(r);
      limited += r->status == 429 ? 1 : 0;
    }
    EXPECT_GE(limited, 1) << "a forwarded address believed from an untrusted socket";

    // A second replica on the socket a live one serves on does not start.
    // (It binds as soon as it has started, not once its read model is ready.)
    auto env = deployment_env(unique_name("second"),
                              {{"HTTP_UNIX_SOCKET", trusted_path}, {"READY_BEFORE_LISTEN_MS", "0"}});
    ServiceProcess second(PETS_BINARY, env);
    EXPECT_TRUE(second.wait_exit(std::chrono::seconds(30)))
        << "a second replica serves on a live replica's socket";
    EXPECT_NE(second.log().find("a server already answers on " + trusted_path), std::string::npos)
        << second.log_tail();
    r = over(trusted_path)->Get("/readyz");
    ASSERT_TRUE(r) << "the live replica lost its socket";
    EXPECT_EQ(r->status, 200);
  }
  EXPECT_FALSE(std::filesystem::exists(trusted_path)) << "a stopped replica left its socket file";
  EXPECT_FALSE(std::filesystem::exists(untrusted_path));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace petstore::testing
