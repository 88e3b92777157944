#include "error/codes.h"
#include "http/history_route.h"
#include "http/idempotent_create.h"
#include "http/request.h"
#include "http/response.h"
#include "pets/domain/errors.h"
#include "pets/http/json_codec.h"
#include "pets/http/routes.h"

namespace petstore::pets {
namespace {

void send_pet(httplib::Response& res, int status, const Pet& pet) {
  res.set_header("ETag", http::etag(pet.version));
  http::send_json(res, status, to_json(pet));
}

Precondition if_match(const httplib::Request& req) {
  return [&req](std::int64_t version) { http::check_if_match(req, version); };
}

}  // namespace

void add_pet_routes(http::Router& router, const RouteDeps& d) {
  router.add(
      "POST", "/pets", [d](const httplib::Request& req, httplib::Response& res, const http::PathParams&) {
        const auto fields = parse_pet(req, std::nullopt);
        http::idempotent_create(
            req, res, d.idempotency, d.keys.idempotency("pets", ""), [&](const http::CreateRequest& r) {
              const auto pet = d.pets.create(fields, r.request);
              return es::StoredResponse{201, to_json(pet), "/pets/" + std::to_string(pet.id),
                                        http::etag(pet.version)};
            });
      });

  router.add("GET", "/pets",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams&) {
               const http::Query q(req, {"status", "categoryId", "limit", "cursor"});
               PetFilter filter;
               if (const auto s = q.text("status")) {
                 filter.status = parse_status(*s);
                 if (!filter.status) {
                   throw ApiException(ApiError(400, petstore::codes::kInvalidQuery,
                                               "status must be one of available, pending, sold"));
                 }
               }
               filter.category_id = q.id("categoryId");
               const auto page = d.read.pets(filter, http::page_request(q));
               if (page.next_cursor) {
                 res.set_header("Link", http::next_link(req, *page.next_cursor));
               }
               http::send_json(res, 200, to_json(page.items));
             });

  router.add("GET", "/pets/{petId}",
             [d](const httplib::Request&, httplib::Response& res, const http::PathParams& path) {
               const auto id = path.id(0, "petId");
               // Deprecated (RFC 9745) with a sunset date (RFC 8594); the successor is
               // the profile resource. The headers go on errors too, so every caller sees them.
               res.set_header("Deprecation", kGetPetDeprecation);
               res.set_header("Sunset", kGetPetSunset);
               res.set_header("Link",
                              "</pets/" + std::to_string(id) + "/profile>; rel=\"successor-version\"");
               send_pet(res, 200, d.read.require_pet(id));
             });

  router.add("GET", "/pets/{petId}/profile",
             [d](const httplib::Request&, httplib::Response& res, const http::PathParams& path) {
               const auto p = d.read.require_pet(path.id(0, "petId"));
               res.set_header("ETag", http::etag(p.version));
               http::send_json(res, 200, to_profile_json(p));
             });

  http::add_history_route(
      router, "/pets/{petId}/history", "petId",
      [d](std::int64_t id, const readmodel::PageRequest& page) { return d.read.pet_history(id, page); });

  router.add("PUT", "/pets/{petId}",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams& path) {
               const auto id = path.id(0, "petId");
               const auto fields = parse_pet(req, id);
               send_pet(res, 200, d.pets.replace(id, fields, if_match(req)));
             });

  router.add("PUT", "/pets/{petId}/status",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams& path) {
               const auto id = path.id(0, "petId");
               const auto status = parse_status_change(req);
               send_pet(res, 200, d.pets.change_status(id, status, if_match(req)));
             });

  router.add("DELETE", "/pets/{petId}",
             [d](const httplib::Request& req, httplib::Response& res, const http::PathParams& path) {
               d.pets.remove(path.id(0, "petId"), if_match(req));
               res.status = 204;
             });
}

}  // namespace petstore::pets
