#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace petstore::es {

// The parts of a key space that are not a cache of the log: write-path
// coordination (locks, idempotency records, claims, where partition owners
// answer) and the positions the
// projection and reactors have reached. Replaying the log does not produce
// them, so petstore-audit's rebuild leaves them out when it compares a
// rebuilt read model with the live one. Key names are relative to the base.
struct NotFromLog {
  std::vector<std::string> key_prefixes{"lock:", "idem:", "proj:", "reactor:", "owners:"};
  std::vector<std::string> key_suffixes;
  std::vector<std::string> hash_fields;

  [[nodiscard]] bool covers_key(std::string_view rest) const {
    return std::any_of(key_prefixes.begin(), key_prefixes.end(),
                       [&](const std::string& p) { return rest.starts_with(p); }) ||
           std::any_of(key_suffixes.begin(), key_suffixes.end(),
                       [&](const std::string& s) { return rest.ends_with(s); });
  }
  [[nodiscard]] bool covers_field(std::string_view field) const {
    return std::find(hash_fields.begin(), hash_fields.end(), field) != hash_fields.end();
  }
};

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
  // Where the owners of `topic`'s partitions answer (es::OwnerHints).
  [[nodiscard]] std::string owners(const std::string& topic) const { return key("owners:" + topic); }
  // Present while the read model is a whole fold of the log up to its
  // positions (projection::Readiness sets it after a rebuild); a wipe takes
  // it with everything else, and a projection that finds positions lost
  // deletes it. Writes are refused while it is missing.
  [[nodiscard]] std::string ready_marker() const { return key("proj:ready"); }

 private:
  std::string base_;
};

}  // namespace petstore::es
