#include "error/codes.h"
#include "es/errc.h"
#include "http/api_error.h"
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

std::string admission_path(std::int64_t category_id, std::int64_t pet_id, std::int64_t pet_version) {
  return "/internal/categories/" + std::to_string(category_id) + "/admissions/" + std::to_string(pet_id) +
         "/" + std::to_string(pet_version);
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

  router.add(
      "POST", "/internal/categories/{categoryId}/admissions/{petId}/{petVersion}",
      [d](const httplib::Request& req, httplib::Response& res, const http::PathParams& path) {
        if (!http::Forwarder::forwarded_by_trusted(req, d.trusted)) {
          throw ApiException(ApiError(404, petstore::codes::kRouteNotFound, "no route for POST " + req.path));
        }
        d.categories.admit_here(path.id(0, "categoryId"), path.id(1, "petId"), path.id(2, "petVersion"));
        res.status = 204;
      });
}

CategoryCommands::Relay admission_relay(const http::Forwarder& forwarder) {
  return [&forwarder](const std::string& owner_url, std::int64_t id, std::int64_t pet_id,
                      std::int64_t pet_version) {
    std::string answer;
    const auto status =
        forwarder.send(owner_url, admission_path(id, pet_id, pet_version), "", "text/plain", &answer);
    if (status == 204) {
      return;
    }
    if (status == 422) {
      throw DomainError(DomainError::Kind::Unprocessable, codes::kUnknownCategory,
                        "categoryId " + std::to_string(id) + " does not name an existing category");
    }
    // Nothing of the pet is written; an admission that was is waited out.
    throw es::Error(es::Errc::NotOwner, "the owner of category " + std::to_string(id) + " at " + owner_url +
                                            (status ? " answered " + std::to_string(*status) + ": " + answer
                                                    : std::string(" did not answer")));
  };
}

}  // namespace petstore::pets
