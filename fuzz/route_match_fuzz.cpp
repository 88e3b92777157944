// A method and a path against a table with every shape of route the
// services have: the match, its parameters as ids, and the full answer.
#include <cstdint>

#include "fuzz_input.h"
#include "http/api_error.h"
#include "http/router.h"

namespace {

const petstore::http::Router& table() {
  static const auto* router = [] {
    auto* r = new petstore::http::Router;
    const auto ok = [](const httplib::Request&, httplib::Response& res, const petstore::http::PathParams& p) {
      for (size_t i = 0; i < p.size(); ++i) {
        (void)p.id(i, "id");
      }
      res.status = 200;
    };
    for (const char* path :
         {"/pets", "/pets/{petId}", "/pets/{petId}/profile", "/pets/{petId}/status", "/categories",
          "/categories/{categoryId}", "/store/orders", "/store/orders/{orderId}",
          "/store/orders/{orderId}/complete", "/store/orders/{orderId}/cancel", "/store/inventory",
          "/store/inventory/items", "/store/inventory/items/{petId}", "/admin/keys", "/admin/keys/{keyId}",
          "/healthz"}) {
      r->add("GET", path, ok);
      r->add("PUT", path, ok);
    }
    r->add("DELETE", "/pets/{petId}", ok);
    return r;
  }();
  return *router;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  petstore::fuzz::Fields in(data, size);
  httplib::Request req;
  req.method = in.next();
  req.path = in.next();
  const auto match = table().match(req.method, req.path);
  if (match.route != nullptr) {
    for (size_t i = 0; i < match.params.size(); ++i) {
      try {
        (void)match.params.id(i, "id");
      } catch (const petstore::ApiException&) {
      }
    }
  }
  httplib::Response res;
  table().handle(req, res, match);
  (void)table().allowed_methods(req.path);
  return 0;
}
