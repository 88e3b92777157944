#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace petstore::trace {

// A W3C Trace Context (https://www.w3.org/TR/trace-context/): the trace a
// piece of work belongs to, the span doing it, and the vendors' tracestate.
// It travels as the `traceparent` and `tracestate` HTTP headers, and on every
// event as the CloudEvents distributed-tracing extension (docs/events.md).
struct Context {
  std::string trace_id;  // 32 lowercase hex digits, not all zero
  std::string span_id;   // 16 lowercase hex digits, not all zero
  std::uint8_t flags = 0;
  std::string tracestate;  // empty, or a valid list (parse() drops an invalid one)

  [[nodiscard]] bool empty() const { return trace_id.empty(); }
  // "00-<trace_id>-<span_id>-<flags>".
  [[nodiscard]] std::string traceparent() const;
};

inline constexpr std::uint8_t kSampled = 0x01;

// The context a `traceparent` header names, as the specification's parsing
// rules read it (a higher version is read as version 00 where it can be);
// nullopt when it is invalid, and the receiver then starts a trace of its
// own. An invalid `tracestate` is dropped; the traceparent still counts.
std::optional<Context> parse(std::string_view traceparent, std::string_view tracestate = {});

// A new trace, sampled, with random ids.
Context start();

// A span of the same trace, caused by `parent`: a random span id.
Context child(const Context& parent);
// As child(), with a span id derived from `seed`: the same work done again
// (an event handled again after a crash) gets the same span.
Context child(const Context& parent, std::string_view seed);
// A trace started from `seed` alone, with ids derived from it, for work
// whose cause carries no trace.
Context start(std::string_view seed);

// The context of the work this thread does now, or null. The HTTP edge
// sets it for a request, a reactor for the event it handles; new events
// and log lines take it from here.
const Context* current() noexcept;

// Makes `context` current for this thread while it lives, then restores
// what was current before.
class Scope {
 public:
  explicit Scope(Context context);
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  Context context_;
  const Context* previous_;
};

}  // namespace petstore::trace
