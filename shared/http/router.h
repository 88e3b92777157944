#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <httplib.h>

#include "http/api_error.h"

namespace petstore::http {

// The values of a route's path parameters, in template order: for
// /pets/{petId}/status and /pets/7/status, {"7"}.
class PathParams {
 public:
  PathParams() = default;
  explicit PathParams(std::vector<std::string> values) : values_(std::move(values)) {}

  [[nodiscard]] const std::string& text(size_t index) const { return values_.at(index); }
  // Parameter `index` as a positive int64 id; anything else is 400 invalid_id.
  [[nodiscard]] std::int64_t id(size_t index, const char* name) const;
  [[nodiscard]] size_t size() const { return values_.size(); }

 private:
  std::vector<std::string> values_;
};

// A route's handler. It runs on one of the server's worker threads and may
// block (Kafka acks, Redis, locks); whatever it throws becomes an Error body.
using Handler = std::function<void(const httplib::Request&, httplib::Response&, const PathParams&)>;

// GET and HEAD: safe methods (RFC 9110, section 9.2.1), whose answer may be
// withheld or replaced after their handler ran.
inline bool safe_method(std::string_view method) {
  return method == "GET" || method == "HEAD";
}

// A before-hook's word on a request that it did not give at once.
class Deferred {
 public:
  virtual ~Deferred() = default;
  Deferred() = default;
  Deferred(const Deferred&) = delete;
  Deferred& operator=(const Deferred&) = delete;
  // Waits for the word and writes it into `word`, a fresh response. True:
  // refused, and `word` is the whole answer. False: admitted, and `word`
  // holds only headers to add to the handler's answer.
  virtual bool refused(httplib::Response& word) = 0;
};

// What a before-hook says: it answered the request itself (for example a
// 429), it lets the request through, or (only when the router allows it) its
// word is on the way.
struct Admission {
  bool answered = false;
  std::unique_ptr<Deferred> later;

  // Answered here (true) or let through (false), nothing deferred.
  static Admission decided(bool answered) { return {answered, nullptr}; }
};

// Runs before routing on every request (known route or not). `may_defer` is
// true for a safe request (GET or HEAD, RFC 9110 section 9.2.1) that has a
// route: the router then runs the handler while the hook's word comes, and
// the word decides which answer is sent. The handler's reads are the only
// work a refused request costs, and nothing of them reaches the client.
using BeforeHook = std::function<Admission(const httplib::Request&, httplib::Response&, bool may_defer)>;

// Runs after every response is produced (success or error), to add headers.
using AfterHook = std::function<void(const httplib::Request&, httplib::Response&)>;

// Runs when a handler fails, before the failure becomes an Error body: true
// when it answered the request itself (a command sent on to the owner of
// its aggregate's partition, http::Forwarder).
using RescueHook =
    std::function<bool(const httplib::Request&, httplib::Response&, const std::exception_ptr&)>;

struct Route {
  std::string method;                 // GET, POST, PUT, PATCH, DELETE
  std::string path;                   // OpenAPI template, e.g. /pets/{petId}
  std::vector<std::string> segments;  // "/pets/{petId}" -> {"pets", "{petId}"}
  Handler handler;
};

// What a method and path select: a route and its parameters, or the Error
// that answers them (404 route_not_found, 405 method_not_allowed with Allow).
struct Match {
  const Route* route = nullptr;
  PathParams params;
  std::optional<ApiError> error;
};

// The service's route table. Paths are written as OpenAPI templates so the
// table can be compared with schemas/openapi.yaml in a test. Matching splits
// the path into segments and compares them: no std::regex, whose matcher in
// libstdc++ recurses once per character and overflowed the stack on a long
// path (docs/reliability.md). handle() turns every failure into an Error body.
class Router {
 public:
  void add(std::string method, std::string path, Handler handler);
  void before(BeforeHook hook) { before_.push_back(std::move(hook)); }
  void after(AfterHook hook) { after_.push_back(std::move(hook)); }
  void rescue(RescueHook hook) { rescue_ = std::move(hook); }

  // Pure: which route serves `method` on `path` (HEAD is served by GET).
  [[nodiscard]] Match match(std::string_view method, std::string_view path) const;

  // Answers one request whose body has been read: before-hooks, route,
  // handler, after-hooks. Every exception becomes an Error response.
  void handle(const httplib::Request& req, httplib::Response& res) const;
  // The same with the match already made (the server matches before it reads a body).
  void handle(const httplib::Request& req, httplib::Response& res, const Match& match) const;

  [[nodiscard]] const std::vector<Route>& routes() const { return routes_; }
  // Methods that serve `path`, comma-separated, or empty if none does.
  [[nodiscard]] std::string allowed_methods(std::string_view path) const;

 private:
  std::vector<Route> routes_;
  std::vector<BeforeHook> before_;
  std::vector<AfterHook> after_;
  RescueHook rescue_;
};

// "/pets/{petId}/status" -> {"pets", "{petId}", "status"}.
std::vector<std::string> split_template(std::string_view path);

}  // namespace petstore::http
