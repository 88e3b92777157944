#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include <httplib.h>

#include "es/errc.h"
#include "http/api_error.h"

namespace petstore::http {

inline constexpr const char* kJson = "application/json";

void send_json(httplib::Response& res, int status, std::string body);
void send_error(httplib::Response& res, const ApiError& error);

// 200 with a JSON array of items that are JSON already, and the Link to the
// next page when there is one (as every list does).
void send_json_page(const httplib::Request& req, httplib::Response& res,
                    const std::vector<std::string>& items, std::optional<std::int64_t> next_cursor);

// The one place where errors become HTTP. Maps any exception a handler lets
// escape to the Error the client sees: ApiException as is, DomainError by
// its kind (400/404/409/422), json::Invalid to 400, es::Error by its Errc
// (409 busy, 422 key reused, 503 with Retry-After when not ready or
// lagging), Redis and Kafka outages to 503 with Retry-After, the rest to 500
// (logged, never shown in detail).
ApiError error_from(const std::exception_ptr& failure);
// The same for a write path condition met outside a handler (the gate,
// the readiness hook).
ApiError error_from(const es::Error& e);

// Strong entity tag of an aggregate version: "3".
std::string etag(std::int64_t version);

}  // namespace petstore::http
