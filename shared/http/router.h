#pragma once

#include <functional>
#include <regex>
#include <string>
#include <vector>

#include <httplib.h>

#include "http/exchange.h"
#include "http/worker_pool.h"

namespace petstore::http {

// A handler that may block (Kafka acks, locks): run on a worker thread.
using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;

// A handler that never blocks: it starts its work (a Redis read submitted to
// a redis::Multiplexer) and calls `done` once the response is complete, from
// whichever thread finished it. Run on the event loop, so the hot reads cost
// no thread hand-off at all. It may throw before it hands work off; after,
// failures go into the response (see complete()).
using AsyncHandler = std::function<void(const ExchangePtr&, Done)>;

// Runs before routing on every request (known route or not) and calls
// `next(true)` if it answered the request itself (for example a 429),
// `next(false)` to let it through; exactly once, from any thread.
using Next = std::function<void(bool answered)>;
using BeforeHook = std::function<void(const ExchangePtr&, Next)>;

// Runs after every response is produced (success or error), to add headers.
using AfterHook = std::function<void(const httplib::Request&, httplib::Response&)>;

struct Route {
  std::string method;                 // GET, POST, PUT, PATCH, DELETE
  std::string path;                   // OpenAPI template, e.g. /pets/{petId}
  std::vector<std::string> segments;  // "/pets/{petId}" -> {"pets", "{petId}"}
  std::regex pattern;                 // fills req.matches with the path parameters, in template order
  Handler handler;
  AsyncHandler async_handler;
};

// The service's route table. Paths are written as OpenAPI templates so the
// table can be compared with schemas/openapi.yaml in a test. dispatch() turns
// every failure into an Error body: exceptions from handlers, unknown paths
// (404 route_not_found), known paths with the wrong method (405
// method_not_allowed with Allow), a full worker queue (503 overloaded).
class Router {
 public:
  void add(std::string method, std::string path, Handler handler);
  void add_async(std::string method, std::string path, AsyncHandler handler);
  void before(BeforeHook hook) { before_.push_back(std::move(hook)); }
  void after(AfterHook hook) { after_.push_back(std::move(hook)); }

  // Answers one request: hooks, route, handler (on `workers` unless
  // asynchronous), after-hooks, then `done`. HEAD is served by the GET route.
  void dispatch(const ExchangePtr& ex, WorkerPool& workers, Done done) const;

  [[nodiscard]] const std::vector<Route>& routes() const { return routes_; }
  // Methods that serve `path`, comma-separated, or empty if none does.
  [[nodiscard]] std::string allowed_methods(const std::string& path) const;

 private:
  void run_before(size_t index, const ExchangePtr& ex, WorkerPool& workers, const Done& finish) const;
  void route(const ExchangePtr& ex, WorkerPool& workers, const Done& finish) const;
  [[nodiscard]] const Route* find(const std::string& method, const std::string& path) const;

  std::vector<Route> routes_;
  std::vector<BeforeHook> before_;
  std::vector<AfterHook> after_;
};

// Finishes an asynchronous handler's work: runs `fill` (which writes the
// response and may throw: the exception becomes the Error response), then `done`.
void complete(const ExchangePtr& ex, const Done& done, const std::function<void(httplib::Response&)>& fill);

// Converts "/pets/{petId}/status" to "^/pets/([^/]+)/status$".
std::string template_to_regex(const std::string& path);

}  // namespace petstore::http
