#include "trace/context.h"

#include <random>
#include <utility>

namespace petstore::trace {
namespace {

thread_local const Context* tl_current = nullptr;

constexpr std::string_view kHex = "0123456789abcdef";

bool lower_hex(std::string_view s) {
  return s.find_first_not_of(kHex) == std::string_view::npos;
}

bool all_zero(std::string_view s) {
  return s.find_first_not_of('0') == std::string_view::npos;
}

std::string hex(std::uint64_t v, std::size_t digits) {
  std::string out(digits, '0');
  for (std::size_t i = digits; i-- > 0; v >>= 4U) {
    out[i] = kHex[v & 0xfU];
  }
  return out;
}

std::uint64_t random64() {
  thread_local std::mt19937_64 engine{[] {
    std::random_device device;
    return (std::uint64_t{device()} << 32U) ^ device();
  }()};
  return engine();
}

// FNV-1a, then a finalizer that spreads it (splitmix64's), so that seeds
// differing in one byte give unrelated ids.
std::uint64_t digest(std::string_view seed, std::uint64_t salt) {
  std::uint64_t h = 0xcbf29ce484222325ULL ^ salt;
  for (const char c : seed) {
    h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  }
  h = (h ^ (h >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27U)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31U);
}

// Never all zero: an id of zeros is invalid.
std::string id_hex(std::uint64_t v) {
  return hex(v == 0 ? 1 : v, 16);
}

// tracestate (section 3.3): at most 32 comma-separated members, each
// key=value; optional whitespace around members; empty members allowed.
bool valid_tracestate(std::string_view s) {
  constexpr std::size_t kMaxMembers = 32;
  constexpr std::size_t kMaxLength = 512;
  if (s.size() > kMaxLength) {
    return false;
  }
  std::size_t members = 0;
  while (true) {
    const auto comma = s.find(',');
    auto m = s.substr(0, comma);
    while (!m.empty() && (m.front() == ' ' || m.front() == '\t')) {
      m.remove_prefix(1);
    }
    while (!m.empty() && (m.back() == ' ' || m.back() == '\t')) {
      m.remove_suffix(1);
    }
    if (!m.empty()) {
      const auto eq = m.find('=');
      if (eq == std::string_view::npos || eq == 0 || eq + 1 == m.size() || ++members > kMaxMembers) {
        return false;
      }
      const auto key = m.substr(0, eq);
      const auto value = m.substr(eq + 1);
      constexpr std::size_t kMaxKey = 256;
      constexpr std::size_t kMaxValue = 256;
      if (key.size() > kMaxKey || value.size() > kMaxValue) {
        return false;
      }
      for (const char c : key) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
                        c == '*' || c == '/' || c == '@';
        if (!ok) {
          return false;
        }
      }
      for (const char c : value) {
        if (c < 0x20 || c > 0x7e || c == ',' || c == '=') {
          return false;
        }
      }
    }
    if (comma == std::string_view::npos) {
      return true;
    }
    s.remove_prefix(comma + 1);
  }
}

}  // namespace

std::string Context::traceparent() const {
  return "00-" + trace_id + "-" + span_id + "-" + hex(flags, 2);
}

std::optional<Context> parse(std::string_view traceparent, std::string_view tracestate) {
  // version "-" trace-id "-" parent-id "-" trace-flags: 2+1+32+1+16+1+2.
  constexpr std::size_t kLength = 55;
  if (traceparent.size() < kLength) {
    return std::nullopt;
  }
  const auto version = traceparent.substr(0, 2);
  if (!lower_hex(version) || version == "ff") {
    return std::nullopt;
  }
  // Version 00 is exactly its fields; a later version may add fields
  // after a dash, which a version-00 reader skips.
  if (traceparent.size() > kLength && (version == "00" || traceparent[kLength] != '-')) {
    return std::nullopt;
  }
  if (traceparent[2] != '-' || traceparent[35] != '-' || traceparent[52] != '-') {
    return std::nullopt;
  }
  const auto trace_id = traceparent.substr(3, 32);
  const auto span_id = traceparent.substr(36, 16);
  const auto flags = traceparent.substr(53, 2);
  if (!lower_hex(trace_id) || !lower_hex(span_id) || !lower_hex(flags) || all_zero(trace_id) ||
      all_zero(span_id)) {
    return std::nullopt;
  }
  Context c;
  c.trace_id = trace_id;
  c.span_id = span_id;
  c.flags = static_cast<std::uint8_t>(kHex.find(flags[0]) * 16 + kHex.find(flags[1]));
  if (valid_tracestate(tracestate)) {
    c.tracestate = tracestate;
  }
  return c;
}

Context start() {
  return {id_hex(random64()) + id_hex(random64()), id_hex(random64()), kSampled, {}};
}

Context start(std::string_view seed) {
  return {id_hex(digest(seed, 1)) + id_hex(digest(seed, 2)), id_hex(digest(seed, 3)), kSampled, {}};
}

Context child(const Context& parent) {
  return {parent.trace_id, id_hex(random64()), parent.flags, parent.tracestate};
}

Context child(const Context& parent, std::string_view seed) {
  return {parent.trace_id, id_hex(digest(seed, digest(parent.span_id, 4))), parent.flags, parent.tracestate};
}

const Context* current() noexcept {
  return tl_current;
}

Scope::Scope(Context context) : context_(std::move(context)), previous_(tl_current) {
  tl_current = &context_;
}

Scope::~Scope() {
  tl_current = previous_;
}

}  // namespace petstore::trace
