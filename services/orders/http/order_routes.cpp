#include "error/codes.h"
#include "http/api_error.h"
#include "http/history_route.h"
#include "http/idempotent_create.h"
#include "http/request.h"
#include "http/response.h"
#include "orders/domain/errors.h"
#include "orders/http/json_codec.h"
#include "orders/http/routes.h"

namespace petstore::orders {
namespace {

void send_order(httplib::Response& res, const Order& order) {
  res.set_header("ETag", http::etag(order.version));
  http::send_json(res, 200, to_json(order));
}

Precondition if_match(const httplib::Request& req) {
  return [&req](std::int64_t version) { http::check_if_match(req, version); };
}

// The placement's answer: 201 reserved, 409 refused (code = the reason),
// 202 when the inventory has not answered within the wait.
es::StoredResponse placement_response(const Order& order) {
  const auto location = "/store/orders/" + std::to_string(order.id);
  switch (order.status) {
    case OrderStatus::Placed:
      return {202, to_json(order), location, http::etag(order.version)};
    case OrderStatus::Rejected: {
      const auto code = std::string(to_string(order.rejection.value_or(OrderRefusal::InsufficientStock)));
      const ApiError error(409, code,
                           "order " + std::to_string(order.id) + " for pet " + std::to_string(order.pet_id) +
                               " was refused by the inventory: " + code + "; no stock was reserved");
      return {409, error.to_json(), location, http::etag(order.version)};
    }
    default:
      return {201, to_json(order), location, http::etag(order.version)};
  }
}

}  // namespace

void add_order_routes(http::Router& router, const RouteDeps& d) {
  router.add("POST", "/store/orders",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams&) {
               const auto fields = parse_new_order(req);
               http::idempotent_create(req, res, d.idempotency, d.keys.idempotency(""),
                                       [&](const http::CreateRequest& r) {
                                         return placement_response(d.orders.place(fields, r.request));
                                       });
             });

  router.add("GET", "/store/orders",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams&) {
               const http::Query q(req, {"petId", "status", "complete", "limit", "cursor"});
               OrderFilter filter;
               filter.pet_id = q.id("petId");
               filter.complete = q.boolean("complete");
               if (const auto s = q.text("status")) {
                 filter.status = parse_order_status(*s);
                 if (!filter.status) {
                   throw ApiException(
                       ApiError(400, petstore::codes::kInvalidQuery,
                                "status must be one of placed, reserved, rejected, completed, cancelled"));
                 }
               }
               if (filter.status && filter.complete) {
                 throw ApiException(ApiError(400, petstore::codes::kInvalidQuery,
                                             "use either status or complete, not both"));
               }
               const auto page = d.read.orders(filter, http::page_request(q));
               if (page.next_cursor) {
                 res.set_header("Link", http::next_link(req, *page.next_cursor));
               }
               http::send_json(res, 200, to_json(page.items));
             });

  router.add("GET", "/store/orders/{orderId}",
             [d](const httplib::Request&, httplib::Response& res, const http::PathParams& path) {
               send_order(res, d.read.require_order(path.id(0, "orderId")));
             });

  http::add_history_route(
      router, "/store/orders/{orderId}/history", "orderId",
      [d](std::int64_t id, const readmodel::PageRequest& page) { return d.read.order_history(id, page); });

  router.add("POST", "/store/orders/{orderId}/complete",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams& path) {
               const auto id = path.id(0, "orderId");
               const auto ship_date = parse_completion(req);
               send_order(res, d.orders.complete(id, ship_date, if_match(req)));
             });

  router.add("POST", "/store/orders/{orderId}/cancel",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams& path) {
               send_order(res, d.orders.cancel(path.id(0, "orderId"), if_match(req)));
             });
}

}  // namespace petstore::orders
