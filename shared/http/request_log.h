#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include <httplib.h>

namespace petstore::http {

// What the edge records of each request, on the worker thread that serves
// it (cpp-httplib serves a request on one thread, from its head to its
// logger):
//   - its trace: the caller's W3C `traceparent` (and `tracestate`) when
//     valid, else a new trace; the request is a span of it, current on the
//     thread (trace::current()) while it is served, so the events it
//     appends and the requests it sends on carry it;
//   - its id: the caller's X-Request-Id when it is one (1 to 128 visible
//     ASCII characters), else the request's span id; every response carries
//     it;
//   - one log line once answered: method, route template, status,
//     latency, request id, API key id (never the key), trace and span.
namespace request_log {

// At the head of a request, before anything else of it runs.
void begin(const httplib::Request& req);
// The id of the API key the request presented, once the gate knows it.
void note_api_key_id(std::string_view id);
// Sets the request's X-Request-Id on `res` (once its other headers are in).
void stamp(httplib::Response& res);
// Once the response is written: its log line; the trace stops being current.
void end(const httplib::Request& req, const httplib::Response& res, const std::string* route,
         std::chrono::steady_clock::duration latency);

inline constexpr const char* kRequestIdHeader = "X-Request-Id";

// Whether `id` may be echoed as an X-Request-Id.
bool valid_request_id(std::string_view id);

}  // namespace request_log
}  // namespace petstore::http
