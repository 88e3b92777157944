#include "log/log.h"

#include <spdlog/spdlog.h>

#include <stdexcept>

#include "text/utf8.h"
#include "trace/context.h"

namespace petstore::log {
namespace {

spdlog::level::level_enum to_spdlog(Level level) {
  switch (level) {
    case Level::trace:
      return spdlog::level::trace;
    case Level::debug:
      return spdlog::level::debug;
    case Level::info:
      return spdlog::level::info;
    case Level::warn:
      return spdlog::level::warn;
    case Level::error:
      return spdlog::level::err;
    case Level::critical:
      return spdlog::level::critical;
  }
  return spdlog::level::critical;
}

struct Settings {
  Format format = Format::text;
  std::string prefix;  // json: the members every line starts with
};
Settings& settings() {
  static Settings s;
  return s;
}

// Appends `s` as the inside of a JSON string: quotes, backslashes and
// control bytes escaped, ill-formed UTF-8 replaced (a line may quote a
// client's bytes).
void append_json(std::string& out, std::string_view s) {
  if (!text::is_valid_utf8(s)) {
    append_json(out, text::to_valid_utf8(s));
    return;
  }
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out += c;
        }
    }
  }
}

void append_member(std::string& out, std::string_view key, std::string_view value, bool number) {
  out += ",\"";
  append_json(out, key);
  out += "\":";
  if (number) {
    out += value;
  } else {
    out += '"';
    append_json(out, value);
    out += '"';
  }
}

std::string line_of(std::string_view message, std::initializer_list<Field> fields) {
  const auto& s = settings();
  const auto* trace = trace::current();
  std::string out;
  if (s.format == Format::json) {
    out = s.prefix;
    append_json(out, message);
    out += '"';
    for (const auto& f : fields) {
      append_member(out, f.key, f.value, f.number);
    }
    if (trace != nullptr) {
      append_member(out, "trace_id", trace->trace_id, false);
      append_member(out, "span_id", trace->span_id, false);
    }
    return out;
  }
  out = message;
  for (const auto& f : fields) {
    out += fmt::format(" {}={}", f.key, f.value);
  }
  if (trace != nullptr) {
    out += fmt::format(" trace_id={} span_id={}", trace->trace_id, trace->span_id);
  }
  return out;
}

}  // namespace

Format format_named(std::string_view name) {
  if (name == "text") {
    return Format::text;
  }
  if (name == "json") {
    return Format::json;
  }
  throw std::invalid_argument("LOG_FORMAT must be text or json, not " + std::string(name));
}

void configure(const std::string& service, const std::string& replica, const std::string& level,
               Format format) {
  spdlog::set_level(spdlog::level::from_str(level));
  auto& s = settings();
  s.format = format;
  if (format == Format::json) {
    // spdlog writes the time and level; line_of() the rest of the object.
    s.prefix = "\"service\":\"";
    append_json(s.prefix, service);
    s.prefix += "\",\"replica\":\"";
    append_json(s.prefix, replica);
    s.prefix += "\",\"msg\":\"";
    spdlog::set_pattern(R"({"time":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l",%v})",
                        spdlog::pattern_time_type::utc);
  } else {
    spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ [" + service + " %P] %v");
  }
}

bool enabled(Level level) noexcept {
  return spdlog::default_logger_raw()->should_log(to_spdlog(level));
}

void write(Level level, std::string_view line) {
  write(level, line, {});
}

void write(Level level, std::string_view message, std::initializer_list<Field> fields) {
  if (!enabled(level)) {
    return;
  }
  if (settings().format == Format::text && fields.size() == 0 && trace::current() == nullptr) {
    spdlog::default_logger_raw()->log(to_spdlog(level), message);
    return;
  }
  spdlog::default_logger_raw()->log(to_spdlog(level), line_of(message, fields));
}

bool Every::due(std::uint64_t& held_back) noexcept {
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  auto next = next_.load();
  // Of the callers that find the line due at the same moment, the one whose
  // exchange succeeds writes it; the others count as held back.
  if (now >= next && next_.compare_exchange_strong(next, now + period_.count())) {
    held_back = held_back_.exchange(0);
    return true;
  }
  held_back_.fetch_add(1);
  return false;
}

}  // namespace petstore::log
