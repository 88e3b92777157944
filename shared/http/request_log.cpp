#include "http/request_log.h"

#include <fmt/core.h>

#include <iterator>
#include <optional>

#include "log/log.h"
#include "trace/context.h"

namespace petstore::http::request_log {
namespace {

struct Current {
  bool active = false;
  std::optional<trace::Scope> span;
  std::string request_id;
  std::string api_key_id;
};
thread_local Current tl_current;

// A header the request sent once; empty when absent or repeated (the
// specification's rule for traceparent: two are invalid). One lookup of
// cpp-httplib's case-insensitive map, which every request pays for.
std::string single(const httplib::Request& req, const char* name) {
  const auto [first, last] = req.headers.equal_range(name);
  return first != last && std::next(first) == last ? first->second : std::string();
}

}  // namespace

bool valid_request_id(std::string_view id) {
  constexpr std::size_t kMax = 128;
  if (id.empty() || id.size() > kMax) {
    return false;
  }
  for (const char c : id) {
    if (c < 0x21 || c > 0x7e) {
      return false;
    }
  }
  return true;
}

void begin(const httplib::Request& req) {
  auto& c = tl_current;
  c.span.reset();
  const auto parent = trace::parse(single(req, "traceparent"), single(req, "tracestate"));
  auto span = parent ? trace::child(*parent) : trace::start();
  const auto id = single(req, kRequestIdHeader);
  c.request_id = valid_request_id(id) ? id : span.span_id;
  c.span.emplace(std::move(span));
  c.api_key_id.clear();
  c.active = true;
}

void note_api_key_id(std::string_view id) {
  if (tl_current.active) {
    tl_current.api_key_id = id;
  }
}

void stamp(httplib::Response& res) {
  if (!tl_current.active) {
    return;
  }
  res.headers.erase(kRequestIdHeader);
  res.set_header(kRequestIdHeader, tl_current.request_id);
}

void end(const httplib::Request& req, const httplib::Response& res, const std::string* route,
         std::chrono::steady_clock::duration latency) {
  auto& c = tl_current;
  if (!c.active) {
    return;
  }
  // Probes and scrapes come every few seconds from the platform, not from
  // clients: their lines are for debugging.
  const bool probe =
      route != nullptr && (*route == "/healthz" || *route == "/readyz" || *route == "/metrics");
  const auto level = probe ? log::Level::debug : log::Level::info;
  if (log::enabled(level)) {
    const auto status = std::to_string(res.status);
    const auto ms = fmt::format("{:.3f}", std::chrono::duration<double, std::milli>(latency).count());
    log::write(level, "request",
               {{"method", req.method},
                {"route", route != nullptr ? std::string_view(*route) : std::string_view("unmatched")},
                {"status", status, true},
                {"latency_ms", ms, true},
                {"request_id", c.request_id},
                {"api_key_id", c.api_key_id}});
  }
  c.active = false;
  c.span.reset();
}

}  // namespace petstore::http::request_log
