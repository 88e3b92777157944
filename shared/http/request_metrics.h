#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "http/router.h"
#include "metrics/registry.h"

namespace petstore::http {

// GET /metrics: the process's registry (metrics::Registry::global(), the
// process's own figures included) in Prometheus' text format. For
// Prometheus at the replica's own address: the entry point does not pass
// it on, and it is neither rate limited nor held while the read model is
// rebuilt.
void add_metrics_route(Router& router);

// The HTTP server's metrics, in the process's registry:
// - petstore_http_requests_total{method,route,status}: every response;
// - petstore_http_request_duration_seconds{method,route}: from the request's
//   head to its response written;
// - petstore_http_requests_in_flight: requests between their head and
//   their response;
// - petstore_http_overloaded_total: connections refused 503 overloaded
//   because every worker was busy and the queue was full.
// `route` is the route's OpenAPI template ("/pets/{petId}"), or
// "unmatched" for a path no route serves: never the path itself, whose
// values would make a series each.
class RequestMetrics {
 public:
  static RequestMetrics& get();

  void answered(std::string_view method, const std::string* route, int status,
                std::chrono::steady_clock::duration took);
  void overloaded() { overloaded_.inc(); }
  metrics::Gauge& in_flight() { return in_flight_; }

 private:
  RequestMetrics();
  metrics::Family<metrics::Counter>& requests_;
  metrics::Family<metrics::Histogram>& duration_;
  metrics::Gauge& in_flight_;
  metrics::Counter& overloaded_;
};

}  // namespace petstore::http
