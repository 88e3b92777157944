#include "events/envelope.h"

#include <sys/random.h>
#include <array>
#include <charconv>
#include <cstdio>
#include <ctime>
#include <limits>
#include <stdexcept>

#include "json/writer.h"
#include "text/digest.h"

namespace petstore::events {
namespace {

std::int64_t parse_int(const std::string& text, const char* what) {
  std::int64_t v = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc{} || ptr != end) {
    throw std::invalid_argument(std::string("event has a malformed ") + what + ": " + text);
  }
  return v;
}

}  // namespace

std::string format_sequence(std::int64_t version) {
  std::array<char, 24> buf{};
  std::snprintf(buf.data(), buf.size(), "%019lld", static_cast<long long>(version));
  return buf.data();
}

std::int64_t parse_sequence(const std::string& text) {
  return parse_int(text, "ce_sequence");
}

int parse_schema_version(const std::string& text) {
  const auto v = parse_int(text, "ce_schemaversion");
  if (v < 1 || v > std::numeric_limits<int>::max()) {
    throw std::invalid_argument("event has a malformed ce_schemaversion: " + text);
  }
  return static_cast<int>(v);
}

std::string format_time(std::chrono::system_clock::time_point t) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  const auto secs = static_cast<time_t>(ms / 1000);
  std::tm utc{};
  gmtime_r(&secs, &utc);
  std::array<char, 40> buf{};
  const auto n = std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%S", &utc);
  std::snprintf(buf.data() + n, buf.size() - n, ".%03dZ", static_cast<int>(ms % 1000));
  return buf.data();
}

std::string new_event_id() {
  std::array<unsigned char, 16> b{};
  if (getrandom(b.data(), b.size(), 0) != static_cast<ssize_t>(b.size())) {
    throw std::runtime_error("getrandom failed");
  }
  b[6] = static_cast<unsigned char>((b[6] & 0x0FU) | 0x40U);  // version 4
  b[8] = static_cast<unsigned char>((b[8] & 0x3FU) | 0x80U);  // RFC 4122 variant
  std::array<char, 37> out{};
  std::snprintf(out.data(), out.size(),
                "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
                b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return out.data();
}

std::string name_based_event_id(std::string_view name) {
  // The store's namespace, aff3c6c0-2c4d-4387-ba90-870388d41f0c, as bytes.
  static constexpr std::string_view kNamespace{
      "\xaf\xf3\xc6\xc0\x2c\x4d\x43\x87\xba\x90\x87\x03\x88\xd4\x1f\x0c", 16};
  std::string input(kNamespace);
  input.append(name);
  auto h = text::sha1_hex(input).substr(0, 32);
  h[12] = '5';                                                    // version 5
  h[16] = "89ab"[std::stoi(h.substr(16, 1), nullptr, 16) & 0x3];  // RFC 4122 variant
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" +
         h.substr(20);
}

std::string to_structured_json(const Envelope& e) {
  json::Writer w;
  w.begin_object().field("specversion", kSpecVersion).field("id", e.id).field("source", e.source);
  w.field("type", e.type).field("subject", e.subject).field("time", e.time);
  w.field("datacontenttype", kContentType).field("dataschema", dataschema_for(e.type, e.schema_version));
  w.field("sequence", format_sequence(e.version)).field("schemaversion", std::to_string(e.schema_version));
  if (!e.traceparent.empty()) {
    w.field("traceparent", e.traceparent);
    if (!e.tracestate.empty()) {
      w.field("tracestate", e.tracestate);
    }
  }
  w.key("data").raw(e.data).end_object();
  return w.finish();
}

}  // namespace petstore::events
