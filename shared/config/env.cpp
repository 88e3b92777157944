#include "config/env.h"

#include <unistd.h>
#include <charconv>

namespace petstore::config {

Env::Env(std::map<std::string, std::string> values) : values_(std::move(values)) {}

Env Env::from_process() {
  std::map<std::string, std::string> values;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string line(*entry);
    const auto eq = line.find('=');
    if (eq != std::string::npos) {
      values.emplace(line.substr(0, eq), line.substr(eq + 1));
    }
  }
  return Env(std::move(values));
}

std::optional<std::string> Env::find(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) {
    return std::nullopt;
  }
  return it->second;
}

std::string Env::str(const std::string& name, const std::string& fallback) const {
  return find(name).value_or(fallback);
}

std::int64_t Env::integer(const std::string& name, std::int64_t fallback, std::int64_t min,
                          std::int64_t max) const {
  const auto raw = find(name);
  if (!raw) {
    return fallback;
  }
  std::int64_t value = 0;
  const auto* end = raw->data() + raw->size();
  const auto [ptr, ec] = std::from_chars(raw->data(), end, value);
  if (ec != std::errc{} || ptr != end) {
    throw ConfigError(name + " must be an integer, got '" + *raw + "'");
  }
  if (value < min || value > max) {
    throw ConfigError(name + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                      ", got " + *raw);
  }
  return value;
}

std::chrono::milliseconds Env::millis(const std::string& name, std::chrono::milliseconds fallback) const {
  return std::chrono::milliseconds(integer(name, fallback.count(), 0, 86'400'000));
}

bool Env::flag(const std::string& name, bool fallback) const {
  const auto raw = find(name);
  if (!raw) {
    return fallback;
  }
  if (*raw == "1" || *raw == "true" || *raw == "yes" || *raw == "on") {
    return true;
  }
  if (*raw == "0" || *raw == "false" || *raw == "no" || *raw == "off") {
    return false;
  }
  throw ConfigError(name + " must be true or false, got '" + *raw + "'");
}

}  // namespace petstore::config
