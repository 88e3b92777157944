// The HTTP server itself, spoken to over raw sockets: pipelining, 100
// Continue, chunked bodies, HEAD, HTTP/1.0, malformed requests (an Error
// body, then the connection closes), idle connections closed on time, and
// far more concurrent connections than worker threads.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <thread>

#include "support/http_json.h"
#include "support/service_process.h"

namespace petstore::testing {
namespace {

struct RawResponse {
  int status = 0;
  std::string head;
  std::string body;
};

// One client socket, blocking, with a receive timeout so a hang fails the test.
class RawConnection {
 public:
  explicit RawConnection(int port) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    timeval tv{5, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  }
  ~RawConnection() { ::close(fd_); }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  [[nodiscard]] bool connected() const { return connected_; }
  [[nodiscard]] int fd() const { return fd_; }

  void send(const std::string& bytes) const {
    size_t sent = 0;
    while (sent < bytes.size()) {
      const auto n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      ASSERT_GT(n, 0) << "send failed";
      sent += static_cast<size_t>(n);
    }
  }

  // The next response (head, then a Content-Length body unless `head_only`),
  // or status 0 if the connection ended first.
  RawResponse next(bool head_only = false) {
    RawResponse r;
    size_t end = 0;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
      if (!fill()) {
        return r;
      }
    }
    r.head = buffer_.substr(0, end + 4);
    buffer_.erase(0, end + 4);
    r.status = std::stoi(r.head.substr(9, 3));
    const auto cl = r.head.find("Content-Length: ");
    const size_t length = head_only || cl == std::string::npos ? 0 : std::stoul(r.head.substr(cl + 16));
    while (buffer_.size() < length) {
      if (!fill()) {
        r.status = 0;
        return r;
      }
    }
    r.body = buffer_.substr(0, length);
    buffer_.erase(0, length);
    return r;
  }

  // True when the server closed the connection (nothing more to read).
  bool closed_by_server() {
    while (buffer_.empty()) {
      if (!fill()) {
        return true;
      }
    }
    return false;
  }

 private:
  bool fill() {
    char chunk[4096];
    const auto n = ::recv(fd_, chunk, sizeof(chunk), 0);
    if (n <= 0) {
      return false;
    }
    buffer_.append(chunk, static_cast<size_t>(n));
    return true;
  }

  int fd_;
  bool connected_ = false;
  std::string buffer_;
};

class HttpWire : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // Few workers and a short keep-alive: the loops, not threads, carry the
    // connections; three Redis lanes, so replies come back on several threads.
    deployment_ = std::make_unique<PetsDeployment>(
        1, std::map<std::string, std::string>{{"HTTP_THREADS", "4"},
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

TEST_F(HttpWire, PipelinedRequestsAreAnsweredInOrder) {
  const auto a = std::to_string(new_pet());
  const auto b = std::to_string(new_pet());
  RawConnection c(port());
  ASSERT_TRUE(c.connected());
  c.send(get("/pets/" + a + "/profile") + get("/pets/" + b) + get("/nowhere") + get("/categories?limit=1"));
  auto r = c.next();
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("\"id\":" + a), std::string::npos);
  r = c.next();
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("\"id\":" + b), std::string::npos);
  EXPECT_NE(r.head.find("Deprecation: @"), std::string::npos);
  r = c.next();
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.body.find("route_not_found"), std::string::npos);
  EXPECT_EQ(c.next().status, 200);  // a blocking route after the loop's own
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
  c.send("HEAD /pets/" + id + "/profile HTTP/1.1\r\nHost: t\r\n" + key_header() + "\r\n" +
         get("/pets/" + id + "/profile"));
  const auto head = c.next(true);
  EXPECT_EQ(head.status, 200);
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
  EXPECT_NE(r.head.find("Connection: close"), std::string::npos);
  EXPECT_TRUE(c.closed_by_server());
}

TEST_F(HttpWire, MalformedRequestsGetAnErrorBodyThenTheConnectionCloses) {
  const std::vector<std::pair<std::string, int>> cases = {
      {"GET /pets HTTP/2.0\r\n\r\n", 505},
      {"GET /pets\r\n\r\n", 400},
      {"POST /pets HTTP/1.1\r\nContent-Type: application/json\r\n\r\n", 400},
      {"GET /pets HTTP/1.1\r\nX-Big: " + std::string(20'000, 'x') + "\r\n\r\n", 431},
      {"POST /pets HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 30000\r\n\r\n" +
           std::string(30'000, 'x'),
       413},
      {"POST /pets HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
  };
  for (const auto& [wire, status] : cases) {
    RawConnection c(port());
    c.send(wire);
    const auto r = c.next();
    EXPECT_EQ(r.status, status) << wire.substr(0, 40);
    EXPECT_NE(r.body.find("\"status\":" + std::to_string(status)), std::string::npos) << r.body;
    EXPECT_NE(r.head.find("Connection: close"), std::string::npos);
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

TEST_F(HttpWire, ARequestTricklingInIsCutOffAtTheReadTimeout) {
  RawConnection c(port());
  c.send("GET /healthz HTTP/1.1\r\n");
  const auto before = std::chrono::steady_clock::now();
  // A byte every 200 ms keeps the connection busy but never ends the head
  // (HTTP_READ_TIMEOUT_S=1): the server must close it anyway.
  bool closed = false;
  for (int i = 0; i < 20 && !closed; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    closed = ::send(c.fd(), "X", 1, MSG_NOSIGNAL) != 1;
  }
  EXPECT_TRUE(closed || c.closed_by_server());
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::milliseconds(3500));
}

// A replica of its own, stopped with SIGTERM while a client holds a
// keep-alive connection: what it sends on that connection is still answered
// (with Connection: close), new connections are refused at once, and the
// process exits soon after.
TEST(HttpWireStop, AStoppingReplicaAnswersOpenConnectionsAndRefusesNewOnes) {
  PetsDeployment own(1);
  auto& replica = own.replica(0);
  RawConnection open_connection(replica.port());
  const auto get = "GET /categories?limit=1 HTTP/1.1\r\nHost: t\r\nX-API-Key: " + own.api_key() + "\r\n\r\n";
  open_connection.send(get);
  ASSERT_EQ(open_connection.next().status, 200);

  const auto signalled = std::chrono::steady_clock::now();
  ASSERT_EQ(::kill(replica.pid(), SIGTERM), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(RawConnection(replica.port()).connected()) << "still accepting after the stop";

  open_connection.send(get);  // a blocking route: answered by a worker, delivered by the loop
  const auto r = open_connection.next();
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.head.find("Connection: close"), std::string::npos);
  EXPECT_TRUE(open_connection.closed_by_server());

  // Watch for the exit without reaping the child (the deployment does that).
  const auto exited = [&replica] {
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(replica.pid()), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == replica.pid();
  };
  while (!exited() && std::chrono::steady_clock::now() - signalled < std::chrono::seconds(10)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_LT(std::chrono::steady_clock::now() - signalled, std::chrono::milliseconds(4500))
      << "the replica did not exit promptly after SIGTERM";
}

TEST_F(HttpWire, FarMoreConnectionsThanWorkerThreadsAreServedAtOnce) {
  const auto id = std::to_string(new_pet());
  // 300 open connections against 4 workers: each sends its request before
  // any reads, which a thread-per-connection server could not answer.
  std::vector<std::unique_ptr<RawConnection>> connections;
  for (int i = 0; i < 300; ++i) {
    connections.push_back(std::make_unique<RawConnection>(port()));
    ASSERT_TRUE(connections.back()->connected());
  }
  for (size_t i = 0; i < connections.size(); ++i) {
    connections[i]->send(get(i % 2 == 0 ? "/pets/" + id + "/profile" : "/pets/" + id));
  }
  int ok = 0;
  for (auto& c : connections) {
    ok += c->next().status == 200 ? 1 : 0;
  }
  EXPECT_EQ(ok, 300);
}

}  // namespace
}  // namespace petstore::testing
