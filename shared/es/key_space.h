#pragma once

#include <string>
#include <string_view>

namespace petstore::es {

// Names every Redis key of one service's read model: "<prefix>:{<service>}:<rest>".
// The hash tag keeps all of a service's keys in one Redis Cluster slot, so its
// multi-key Lua scripts run unchanged on a cluster. The prefix separates
// deployments (and tests) sharing one Redis.
class KeySpace {
 public:
  KeySpace(std::string prefix, std::string_view service)
      : base_(std::move(prefix) + ":{" + std::string(service) + "}:") {}

  [[nodiscard]] const std::string& base() const { return base_; }
  [[nodiscard]] std::string key(std::string_view rest) const { return base_ + std::string(rest); }

  // The hash of applied positions, "<topic>:<partition>" -> last offset.
  [[nodiscard]] std::string offsets() const { return key("proj:offsets"); }

 private:
  std::string base_;
};

}  // namespace petstore::es
