// Any bytes as a request's `traceparent` and `tracestate` headers (up to
// the first newline, and after it), which every replica reads at its edge
// (http::request_log) and every reactor from each event's ce_traceparent
// and ce_tracestate (projection::Reactor::step_trace). What parses must
// write back as version 00 of the same ids, and its spans must parse too.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "trace/context.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  namespace trace = petstore::trace;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto newline = input.find('\n');
  const auto parent = input.substr(0, newline);
  const auto state = newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
  const auto c = trace::parse(parent, state);
  if (!c) {
    return 0;
  }
  if (!c->tracestate.empty() && c->tracestate != state) {
    std::abort();
  }
  const auto again = trace::parse(c->traceparent(), c->tracestate);
  if (!again || again->trace_id != c->trace_id || again->span_id != c->span_id || again->flags != c->flags ||
      again->tracestate != c->tracestate) {
    std::abort();
  }
  if (parent.size() == 55 && c->traceparent() != parent && parent.substr(0, 2) == "00") {
    std::abort();
  }
  const auto span = trace::child(*c, input);
  if (!trace::parse(span.traceparent()) || span.trace_id != c->trace_id) {
    std::abort();
  }
  return 0;
}
