#pragma once

#include <functional>
#include <regex>
#include <string>
#include <vector>

#include <httplib.h>

namespace petstore::http {

using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;

// Runs before routing on every request (known route or not). Returning true
// means it answered the request itself (for example a 429).
using BeforeHook = std::function<bool(const httplib::Request&, httplib::Response&)>;

// Runs after every response is produced (success or error), to add headers.
using AfterHook = std::function<void(const httplib::Request&, httplib::Response&)>;

struct Route {
  std::string method;  // GET, POST, PUT, DELETE
  std::string path;    // OpenAPI template, e.g. /pets/{petId}
  std::string regex_source;
  std::regex pattern;
  Handler handler;
};

// The service's route table. Paths are written as OpenAPI templates so the
// table can be compared with schemas/openapi.yaml in a test. install() wires
// it into httplib, turning every failure into an Error body: exceptions from
// handlers, unknown paths (404 route_not_found), known paths with the wrong
// method (405 method_not_allowed with Allow), oversized bodies (413).
class Router {
 public:
  void add(std::string method, std::string path, Handler handler);
  void before(BeforeHook hook) { before_.push_back(std::move(hook)); }
  void after(AfterHook hook) { after_.push_back(std::move(hook)); }

  // The router must outlive the server: the 404/405 handler consults it.
  void install(httplib::Server& server) const;

  [[nodiscard]] const std::vector<Route>& routes() const { return routes_; }
  // Methods that serve `path`, comma-separated, or empty if none does.
  [[nodiscard]] std::string allowed_methods(const std::string& path) const;

 private:
  std::vector<Route> routes_;
  std::vector<BeforeHook> before_;
  std::vector<AfterHook> after_;
};

// Converts "/pets/{petId}/status" to "^/pets/([^/]+)/status$".
std::string template_to_regex(const std::string& path);

}  // namespace petstore::http
