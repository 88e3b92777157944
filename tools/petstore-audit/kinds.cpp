// The registry of kinds: every module's, each given its index.
#include "kind_module.h"

namespace petstore::audit {

const std::vector<const CheckModule*>& check_modules() {
  static const auto kAll = [] {
    auto all = service_check_modules();
    all.push_back(&keys_checks());
    return all;
  }();
  return kAll;
}

const std::vector<RegisteredKind>& kinds() {
  static const auto kAll = [] {
    std::vector<RegisteredKind> all;
    const auto& modules = check_modules();
    for (std::size_t m = 0; m < modules.size(); ++m) {
      for (const auto& k : modules[m]->kinds) {
        all.push_back({k, static_cast<Kind>(all.size()), m});
      }
    }
    return all;
  }();
  return kAll;
}

std::optional<Kind> kind_named(std::string_view name) {
  for (const auto& k : kinds()) {
    if (k.name == name) {
      return k.kind;
    }
  }
  return std::nullopt;
}

}  // namespace petstore::audit
