#include "http/forwarder.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string_view>
#include <system_error>

#include "error/codes.h"
#include "es/errc.h"
#include "http/response.h"
#include "http/router.h"
#include "log/log.h"
#include "text/ascii.h"
#include "trace/context.h"

namespace petstore::http {

namespace {

// Hop-by-hop headers (RFC 9110, section 7.6.1) and the framing httplib sets
// itself: never relayed in either direction.
bool hop_by_hop(std::string_view name) {
  return std::ranges::any_of(
      std::initializer_list<std::string_view>{"connection", "keep-alive", "transfer-encoding", "te",
                                              "trailer", "upgrade", "proxy-connection", "content-length",
                                              "host"},
      [&](std::string_view h) { return text::equals_ignoring_case(name, h); });
}

std::int64_t unix_ms(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

thread_local std::map<std::string, std::unique_ptr<httplib::Client>> clients;

// The owner's work is a span of this replica's (trace::current()).
void add_trace(httplib::Headers& headers) {
  if (const auto* t = trace::current()) {
    headers.emplace("traceparent", t->traceparent());
    if (!t->tracestate.empty()) {
      headers.emplace("tracestate", t->tracestate);
    }
  }
}

}  // namespace

httplib::Client& Forwarder::client_for(const std::string& owner_url) const {
  auto& client = clients[owner_url];
  if (!client) {
    client = std::make_unique<httplib::Client>(owner_url);
    client->set_keep_alive(true);
    // The client writes a request's head and body apart: with Nagle's
    // algorithm the body waited for the owner's delayed ACK of the head,
    // 40 ms or more, on every relayed saga step and forwarded command
    // (forwarder_test, SendsARequestsBodyWithoutWaitingForThePeersAck).
    client->set_tcp_nodelay(true);
    client->set_connection_timeout(settings_.connect_timeout);
    client->set_read_timeout(settings_.read_timeout);
    client->set_write_timeout(settings_.read_timeout);
  }
  return *client;
}

void Forwarder::drop_client(const std::string& owner_url) {
  clients.erase(owner_url);
}

bool Forwarder::expired(const httplib::Request& req, std::chrono::system_clock::time_point now) {
  if (!req.has_header(kForwardedHeader) || !req.has_header(kDeadlineHeader)) {
    return false;
  }
  const auto value = req.get_header_value(kDeadlineHeader);
  std::int64_t deadline = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), deadline);
  return ec != std::errc{} || end != value.data() + value.size() || deadline < unix_ms(now);
}

std::string Forwarder::deadline() const {
  return std::to_string(unix_ms(std::chrono::system_clock::now() + settings_.start_within));
}

std::optional<int> Forwarder::send(const std::string& owner_url, const std::string& path,
                                   const std::string& body, const std::string& content_type,
                                   std::string* answer) const {
  httplib::Request out;
  out.method = "POST";
  out.path = path;
  out.headers.emplace(kForwardedHeader, settings_.self);
  out.headers.emplace(kDeadlineHeader, deadline());
  out.headers.emplace("Content-Type", content_type);
  add_trace(out.headers);
  out.body = body;
  auto& client = client_for(owner_url);
  client.set_read_timeout(settings_.relay_timeout);
  const auto result = client.send(out);
  client.set_read_timeout(settings_.read_timeout);
  if (!result) {
    log::warn("sending {} to {} failed: {}", path, owner_url, httplib::to_string(result.error()));
    drop_client(owner_url);
    return std::nullopt;
  }
  if (answer != nullptr) {
    *answer = result->body;
  }
  return result->status;
}

bool Forwarder::forward(const httplib::Request& req, httplib::Response& res,
                        const std::string& owner_url) const {
  auto& client = client_for(owner_url);
  httplib::Headers headers;
  std::string forwarded_for;
  for (const auto& [name, value] : req.headers) {
    if (hop_by_hop(name) || text::equals_ignoring_case(name, "x-petstore-forwarded") ||
        text::equals_ignoring_case(name, "x-petstore-forward-deadline") ||
        text::equals_ignoring_case(name, "traceparent") || text::equals_ignoring_case(name, "tracestate") ||
        text::equals_ignoring_case(name, "accept-encoding")) {
      continue;
    }
    if (text::equals_ignoring_case(name, "x-forwarded-for")) {
      forwarded_for += (forwarded_for.empty() ? "" : ", ") + value;
      continue;
    }
    headers.emplace(name, value);
  }
  // The owner finds the client as this replica did: this peer appended, so
  // walking from the right past trusted hops reaches the same address.
  forwarded_for += (forwarded_for.empty() ? "" : ", ") + req.remote_addr;
  headers.emplace("X-Forwarded-For", forwarded_for);
  headers.emplace(kForwardedHeader, settings_.self);
  headers.emplace(kDeadlineHeader, deadline());
  // The owner answers uncoded, and this replica codes the answer for its
  // client as for any other: the body relayed is the one it read.
  headers.emplace("Accept-Encoding", "identity");
  add_trace(headers);

  httplib::Request out;
  out.method = req.method;
  out.path = req.target.empty() ? req.path : req.target;
  out.headers = std::move(headers);
  out.body = req.body;
  const auto answer = client.send(out);
  if (!answer) {
    log::warn("forwarding {} {} to {} failed: {}", req.method, req.path, owner_url,
              httplib::to_string(answer.error()));
    drop_client(owner_url);
    // Sent, and no answer: an owner frozen in the middle of it (paused
    // while it appended) may still commit the write once it wakes, so a
    // write cannot be answered "nothing written" (docs/consistency.md,
    // "Say what happened"). Not sent at all: it was not run.
    const auto error = answer.error();
    if (!safe_method(req.method) && (error == httplib::Error::Read || error == httplib::Error::Write)) {
      send_error(res,
                 ApiError(503, codes::kOutcomeUnknown,
                          "the owner of this aggregate's partition took the request and did not answer in "
                          "time: the write may or may not be in the log; retry with the same "
                          "Idempotency-Key, or look the resource up"));
      return true;
    }
    return false;
  }
  res.status = answer->status;
  res.body = answer->body;
  for (const auto& [name, value] : answer->headers) {
    // cpp-httplib's client decodes a coded answer as it reads it.
    if (!hop_by_hop(name) && !text::equals_ignoring_case(name, "content-encoding")) {
      res.headers.emplace(name, value);
    }
  }
  return true;
}

bool Forwarder::rescue(const httplib::Request& req, httplib::Response& res,
                       const std::exception_ptr& failure) const {
  try {
    std::rethrow_exception(failure);
  } catch (const es::Error& e) {
    return e.code() == es::Errc::NotOwner && !e.owner_hint().empty() && may_forward(req) &&
           forward(req, res, e.owner_hint());
  } catch (...) {
    return false;
  }
}

}  // namespace petstore::http
