#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <httplib.h>

#include "readmodel/page.h"

namespace petstore::http {

// Refuses a write whose body is not JSON (415; the media type compared
// without regard to case, RFC 9110 section 8.3.1) or is missing (400).
void require_json_body(const httplib::Request& req);

// Query parameters, refused (400 invalid_query) when unknown or repeated, so
// a typo such as ?staus=sold is reported rather than silently ignored.
class Query {
 public:
  Query(const httplib::Request& req, std::initializer_list<std::string_view> allowed);

  [[nodiscard]] std::optional<std::string> text(const char* name) const;
  [[nodiscard]] std::optional<std::int64_t> id(const char* name) const;
  [[nodiscard]] std::optional<bool> boolean(const char* name) const;

 private:
  const httplib::Request& req_;
};

// `limit` and `cursor` of the query, refused (400 invalid_query) out of range.
readmodel::PageRequest page_request(const Query& q);

// `</pets?status=sold&limit=20&cursor=123>; rel="next"` for the next page,
// keeping every other query parameter of the request.
std::string next_link(const httplib::Request& req, std::int64_t next_cursor);

// A list-valued field as one comma-separated list: several field lines of
// it mean the same as one line joined with commas (RFC 9110, section 5.3).
// Empty when the request has none.
std::string field_list(const httplib::Request& req, const char* name);

// The Idempotency-Key header, if present: 1 to 255 visible ASCII characters.
std::optional<std::string> idempotency_key(const httplib::Request& req);

// The content coding to answer in, for an Accept-Encoding field value (RFC
// 9110, section 12.5.3): of the codings the server has, in its order of
// preference, the one with the highest weight above 0 ("x-gzip" is gzip, "*"
// any coding not named), unless identity weighs more; empty for identity.
// An element whose weight is malformed is not acceptable.
std::string_view response_coding(std::string_view accept_encoding,
                                 std::initializer_list<std::string_view> available);

// Enforces If-Match against the aggregate's current version: absent passes,
// "*" passes, a list of entity tags passes if one is "<version>"; otherwise
// 412 precondition_failed. Weak tags (W/"3") never match, as RFC 9110 says.
void check_if_match(const httplib::Request& req, std::int64_t current_version);

}  // namespace petstore::http
