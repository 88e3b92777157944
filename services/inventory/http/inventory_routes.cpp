#include "error/codes.h"
#include "http/api_error.h"
#include "http/history_route.h"
#include "http/request.h"
#include "http/response.h"
#include "inventory/http/json_codec.h"
#include "inventory/http/routes.h"

namespace petstore::inventory {
namespace {

void send_item(httplib::Response& res, const Item& item) {
  res.set_header("ETag", http::etag(item.version));
  http::send_json(res, 200, to_json(item));
}

}  // namespace

void add_inventory_routes(http::Router& router, const RouteDeps& d) {
  router.add("GET", "/store/inventory",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams&) {
               const http::Query q(req, {});
               http::send_json(res, 200, to_json(d.read.summary()));
             });

  router.add("GET", "/store/inventory/items",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams&) {
               const http::Query q(req, {"status", "limit", "cursor"});
               std::optional<PetStatus> status;
               if (const auto s = q.text("status")) {
                 status = parse_status(*s);
                 if (!status) {
                   throw ApiException(ApiError(400, petstore::codes::kInvalidQuery,
                                               "status must be one of available, pending, sold"));
                 }
               }
               const auto page = d.read.items(status, http::page_request(q));
               if (page.next_cursor) {
                 res.set_header("Link", http::next_link(req, *page.next_cursor));
               }
               http::send_json(res, 200, to_json(page.items));
             });

  router.add("GET", "/store/inventory/items/{petId}",
             [d](const httplib::Request&, httplib::Response& res, const http::PathParams& path) {
               send_item(res, d.read.require_item(path.id(0, "petId")));
             });

  http::add_history_route(
      router, "/store/inventory/items/{petId}/history", "petId",
      [d](std::int64_t id, const readmodel::PageRequest& page) { return d.read.item_history(id, page); });

  router.add("PUT", "/store/inventory/items/{petId}",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams& path) {
               const auto pet = path.id(0, "petId");
               const auto quantity = parse_inventory_update(req);
               send_item(res, d.stock.set_quantity(pet, quantity, [&req](std::int64_t version) {
                 http::check_if_match(req, version);
               }));
             });
}

}  // namespace petstore::inventory
