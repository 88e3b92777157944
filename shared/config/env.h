#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

namespace petstore::config {

// Raised when an environment variable is set but cannot be used; the message
// names the variable so an operator can fix it without reading code.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads typed settings from a snapshot of the environment. Taking the snapshot
// as a map keeps parsing pure and lets unit tests pass their own values.
class Env {
 public:
  explicit Env(std::map<std::string, std::string> values);
  static Env from_process();

  [[nodiscard]] std::string str(const std::string& name, const std::string& fallback) const;
  [[nodiscard]] std::int64_t integer(const std::string& name, std::int64_t fallback, std::int64_t min,
                                     std::int64_t max) const;
  [[nodiscard]] std::chrono::milliseconds millis(const std::string& name,
                                                 std::chrono::milliseconds fallback) const;
  [[nodiscard]] bool flag(const std::string& name, bool fallback) const;
  [[nodiscard]] std::optional<std::string> find(const std::string& name) const;

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace petstore::config
