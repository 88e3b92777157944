// The registry of views: every module's.
#include <algorithm>

#include "view_module.h"

namespace petstore::audit {

const std::vector<const ViewModule*>& view_modules() {
  static const auto kAll = [] {
    auto all = service_view_modules();
    all.push_back(&keys_views());
    return all;
  }();
  return kAll;
}

const ViewModule* view_of(Kind k) {
  for (const auto* m : view_modules()) {
    if (std::ranges::find(m->kinds, info(k).name) != m->kinds.end()) {
      return m;
    }
  }
  return nullptr;
}

}  // namespace petstore::audit
