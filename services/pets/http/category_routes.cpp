#include "http/idempotent_create.h"
#include "http/request.h"
#include "http/response.h"
#include "pets/domain/errors.h"
#include "pets/http/json_codec.h"
#include "pets/http/routes.h"

namespace petstore::pets {
namespace {

void send_category(httplib::Response& res, int status, const Category& category) {
  res.set_header("ETag", http::etag(category.version));
  http::send_json(res, status, to_json(category));
}

}  // namespace

void add_category_routes(http::Router& router, const RouteDeps& d) {
  router.add("POST", "/categories",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams&) {
               const auto fields = parse_category(req, std::nullopt);
               http::idempotent_create(req, res, d.idempotency, d.keys.idempotency("categories", ""),
                                       [&](const http::CreateRequest& r) {
                                         const auto c = d.categories.create(fields, r.request);
                                         return es::StoredResponse{201, to_json(c),
                                                                   "/categories/" + std::to_string(c.id),
                                                                   http::etag(c.version)};
                                       });
             });

  router.add("GET", "/categories",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams&) {
               const http::Query q(req, {"limit", "cursor"});
               const auto page = d.read.categories(http::page_request(q));
               if (page.next_cursor) {
                 res.set_header("Link", http::next_link(req, *page.next_cursor));
               }
               http::send_json(res, 200, to_json(page.items));
             });

  router.add("GET", "/categories/{categoryId}",
             [d](const httplib::Request&, httplib::Response& res, const http::PathParams& path) {
               send_category(res, 200, d.read.require_category(path.id(0, "categoryId")));
             });

  router.add("PUT", "/categories/{categoryId}",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams& path) {
               const auto id = path.id(0, "categoryId");
               const auto fields = parse_category(req, id);
               send_category(res, 200, d.categories.replace(id, fields, [&req](std::int64_t v) {
                 http::check_if_match(req, v);
               }));
             });

  router.add("DELETE", "/categories/{categoryId}",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams& path) {
               d.categories.remove(path.id(0, "categoryId"),
                                   [&req](std::int64_t v) { http::check_if_match(req, v); });
               res.status = 204;
             });
}

}  // namespace petstore::pets
