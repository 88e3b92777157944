#include "apikeys/admin_routes.h"

#include "apikeys/api_key.h"
#include "error/codes.h"
#include "http/api_error.h"
#include "http/request.h"
#include "http/response.h"
#include "json/reader.h"
#include "json/writer.h"
#include "text/utf8.h"

namespace petstore::apikeys {
namespace {

// As the OpenAPI document and the apikey.issued schema say.
constexpr size_t kMaxNameLength = 200;

[[noreturn]] void refuse(int status, const char* code, std::string message) {
  throw ApiException(ApiError(status, code, std::move(message)));
}

std::string key_id(const http::PathParams& path) {
  const auto& id = path.text(0);
  if (!is_key_id(id)) {
    refuse(404, codes::kApiKeyNotFound, "no API key " + id.substr(0, 64));
  }
  return id;
}

// A plan and its limits from {"plan": ..., "limits": {...}}: the fixed plans
// take no limits; enterprise requires perMinute and perDay and may shorten or
// lengthen its windows.
std::pair<Plan, ratelimit::Limits> read_plan(json::ObjectReader& body) {
  const auto name = body.required_string("plan");
  const auto plan = parse_plan(name);
  if (!plan) {
    refuse(400, codes::kInvalidValue, "plan must be one of free, pro, business, enterprise");
  }
  const auto* limits = body.optional_object("limits");
  if (const auto fixed = fixed_limits(*plan)) {
    if (limits != nullptr) {
      refuse(400, codes::kInvalidValue, "limits are set per key only on the enterprise plan");
    }
    return {*plan, *fixed};
  }
  if (limits == nullptr) {
    refuse(400, codes::kMissingField, "the enterprise plan needs limits: {perMinute, perDay}");
  }
  json::ObjectReader l(*limits);
  ratelimit::Limits custom;
  custom.per_minute = l.required_int64("perMinute");
  custom.per_day = l.required_int64("perDay");
  custom.short_window_s = l.optional_int64("minuteWindowSeconds").value_or(60);
  custom.long_window_s = l.optional_int64("dayWindowSeconds").value_or(86'400);
  l.reject_unknown();
  if (const auto why = invalid_limits(custom)) {
    refuse(400, codes::kInvalidValue, *why);
  }
  return {*plan, custom};
}

void write_record(json::Writer& w, const KeyRecord& k) {
  w.field("id", k.id).field("plan", plan_name(k.plan));
  w.key("limits")
      .begin_object()
      .field("perMinute", k.limits.per_minute)
      .field("perDay", k.limits.per_day)
      .field("minuteWindowSeconds", k.limits.short_window_s)
      .field("dayWindowSeconds", k.limits.long_window_s)
      .end_object();
  w.field("name", k.name).field("createdAt", k.created_at).field("revoked", k.revoked_at.has_value());
  w.optional_field("revokedAt", k.revoked_at);
}

std::string record_json(const KeyRecord& k) {
  json::Writer w;
  w.begin_object();
  write_record(w, k);
  return w.end_object().finish();
}

}  // namespace

void add_admin_routes(http::Router& router, KeyStore& store, const AdminToken& admin_token) {
  const auto* token = &admin_token;

  router.add("POST", "/admin/keys",
             [&store, token](const httplib::Request& req, httplib::Response& res, const http::PathParams&) {
               token->require(req);
               http::require_json_body(req);
               const auto doc = json::parse_object(req.body);
               json::ObjectReader body(doc);
               const auto [plan, limits] = read_plan(body);
               const auto name = body.optional_string("name").value_or("");
               if (text::code_points(name) > kMaxNameLength) {
                 refuse(400, codes::kInvalidValue, "name is longer than 200 characters");
               }
               body.reject_unknown();
               const auto issued = store.issue(plan, limits, name);
               json::Writer w;
               w.begin_object().field("key", issued.key);
               write_record(w, issued.record);
               res.set_header("Location", "/admin/keys/" + issued.record.id);
               res.set_header("Cache-Control", "no-store");
               http::send_json(res, 201, w.end_object().finish());
             });

  router.add("GET", "/admin/keys",
             [&store, token](const httplib::Request& req, httplib::Response& res, const http::PathParams&) {
               token->require(req);
               const http::Query query(req, {});
               json::Writer w;
               w.begin_array();
               for (const auto& k : store.list()) {
                 w.begin_object();
                 write_record(w, k);
                 w.end_object();
               }
               http::send_json(res, 200, w.end_array().finish());
             });

  router.add(
      "GET", "/admin/keys/{keyId}",
      [&store, token](const httplib::Request& req, httplib::Response& res, const http::PathParams& path) {
        token->require(req);
        const auto id = key_id(path);
        const auto k = store.find(id);
        if (!k) {
          refuse(404, codes::kApiKeyNotFound, "no API key " + id);
        }
        http::send_json(res, 200, record_json(*k));
      });

  // The key's events as CloudEvents, paginated by version, as the other
  // aggregates' history resources serve theirs.
  router.add(
      "GET", "/admin/keys/{keyId}/history",
      [&store, token](const httplib::Request& req, httplib::Response& res, const http::PathParams& path) {
        token->require(req);
        const auto id = key_id(path);
        const http::Query q(req, {"limit", "cursor"});
        const auto page = store.history(id, http::page_request(q));
        if (!page) {
          refuse(404, codes::kApiKeyNotFound, "no API key " + id);
        }
        http::send_json_page(req, res, page->items, page->next_cursor);
      });

  router.add(
      "PATCH", "/admin/keys/{keyId}",
      [&store, token](const httplib::Request& req, httplib::Response& res, const http::PathParams& path) {
        token->require(req);
        const auto id = key_id(path);
        http::require_json_body(req);
        const auto doc = json::parse_object(req.body);
        json::ObjectReader body(doc);
        const auto [plan, limits] = read_plan(body);
        body.reject_unknown();
        KeyRecord k;
        switch (store.replan(id, plan, limits, k)) {
          case KeyStore::Change::NotFound:
            refuse(404, codes::kApiKeyNotFound, "no API key " + id);
          case KeyStore::Change::Revoked:
            refuse(409, codes::kApiKeyRevoked, "API key " + id + " is revoked; issue a new one");
          case KeyStore::Change::Done:
            break;
        }
        http::send_json(res, 200, record_json(k));
      });

  router.add(
      "DELETE", "/admin/keys/{keyId}",
      [&store, token](const httplib::Request& req, httplib::Response& res, const http::PathParams& path) {
        token->require(req);
        const auto id = key_id(path);
        KeyRecord k;
        if (store.revoke(id, k) == KeyStore::Change::NotFound) {
          refuse(404, codes::kApiKeyNotFound, "no API key " + id);
        }
        res.status = 204;
      });
}

}  // namespace petstore::apikeys
