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

const std::vector<KindInfo>& kinds() {
  static const auto kAll = [] {
    std::vector<KindInfo> all;
    const auto& modules = check_modules();
    for (std::size_t m = 0; m < modules.size(); ++m) {
      for (auto k : modules[m]->kinds) {
        k.kind = static_cast<Kind>(all.size());
        k.module = m;
        all.push_back(std::move(k));
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
