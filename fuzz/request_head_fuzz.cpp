// A request head as cpp-httplib hands it over (method, target, decoded path,
// headers, query parameters, peer): the server's inspection, then every
// helper that reads headers or the query, and the client address.
#include <cstdint>

#include "fuzz_input.h"
#include "http/api_error.h"
#include "http/client_address.h"
#include "http/request.h"
#include "http/request_guard.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  using namespace petstore;
  fuzz::Fields in(data, size);
  httplib::Request req;
  req.method = in.next();
  req.target = in.next();
  req.path = in.next();
  req.version = in.next();
  req.remote_addr = in.next();
  fuzz::read_pairs(in, req.headers, 8);
  fuzz::read_pairs(in, req.params, 8);
  req.body = in.next();

  (void)http::inspect_head(req, http::RequestLimits{});
  static const auto trusted = http::TrustedProxies::parse("127.0.0.0/8,::1/128,10.0.0.0/8");
  (void)http::client_address(req, trusted);
  try {
    (void)http::TrustedProxies::parse(req.get_header_value("X-Trusted"));
  } catch (const std::invalid_argument&) {
  }
  const auto guarded = [](auto&& f) {
    try {
      f();
    } catch (const ApiException&) {
    }
  };
  guarded([&] { http::require_json_body(req); });
  guarded([&] { (void)http::idempotency_key(req); });
  guarded([&] { http::check_if_match(req, 3); });
  guarded([&] {
    const http::Query q(req, {"status", "categoryId", "limit", "cursor", "petId", "complete"});
    (void)q.id("categoryId");
    (void)q.boolean("complete");
    const auto page = http::page_request(q);
    (void)http::next_link(req, page.after + 1);
  });
  return 0;
}
