#include "http/request_metrics.h"

#include <array>
#include <map>
#include <mutex>
#include <tuple>

#include "metrics/process.h"

namespace petstore::http {

namespace {

// A method the API knows, or "other": a label takes few values.
std::string_view method_label(std::string_view method) {
  static constexpr std::array<std::string_view, 7> kKnown = {"GET",   "HEAD",   "POST",   "PUT",
                                                             "PATCH", "DELETE", "OPTIONS"};
  for (const auto m : kKnown) {
    if (m == method) {
      return m;
    }
  }
  return "other";
}

}  // namespace

void add_metrics_route(Router& router) {
  static std::once_flag process;
  std::call_once(process, [] { metrics::register_process_metrics(metrics::Registry::global()); });
  router.add("GET", "/metrics", [](const httplib::Request&, httplib::Response& res, const PathParams&) {
    res.set_content(metrics::Registry::global().render(), std::string(metrics::kContentType));
  });
}

RequestMetrics& RequestMetrics::get() {
  static RequestMetrics m;
  return m;
}

RequestMetrics::RequestMetrics()
    : requests_(metrics::Registry::global().counter("petstore_http_requests_total",
                                                    "HTTP requests answered, by route template and status.",
                                                    {"method", "route", "status"})),
      duration_(metrics::Registry::global().histogram(
          "petstore_http_request_duration_seconds",
          "Time from a request's head to its response written, by route template.", {"method", "route"},
          metrics::latency_buckets())),
      in_flight_(metrics::Registry::global()
                     .gauge("petstore_http_requests_in_flight", "Requests being handled now.")
                     .with({})),
      overloaded_(metrics::Registry::global()
                      .counter("petstore_http_overloaded_total",
                               "Connections refused 503 overloaded: every worker busy and the queue full.")
                      .with({})) {}

void RequestMetrics::answered(std::string_view method, const std::string* route, int status,
                              std::chrono::steady_clock::duration took) {
  // Each worker keeps the series it has used, so a request costs no label
  // strings and no lookup under the family's lock (routes are few).
  struct Series {
    metrics::Counter* requests;
    metrics::Histogram* duration;
  };
  thread_local std::map<std::tuple<std::string_view, const std::string*, int>, Series> used;
  const auto m = method_label(method);
  auto it = used.find({m, route, status});
  if (it == used.end()) {
    const std::string r = route != nullptr ? *route : std::string("unmatched");
    const std::string ms(m);
    it = used.emplace(std::tuple{m, route, status},
                      Series{&requests_.with({ms, r, std::to_string(status)}), &duration_.with({ms, r})})
             .first;
  }
  it->second.requests->inc();
  it->second.duration->observe(std::chrono::duration<double>(took).count());
}

}  // namespace petstore::http
