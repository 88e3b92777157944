#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "audit_event.h"
#include "rebuild/read_models.h"

namespace petstore::audit {

// What a module adds to `as-of` and `rebuild`, apart from its checks
// (kind_module.h) so that the record checks and their fuzz target link no
// projection. Each service's services/<name>/audit/views.cpp defines
// `const audit::ViewModule& <name>::audit_views()`; the build lists them
// from services/services.txt (service_view_modules()).
struct ViewModule {
  std::vector<std::string_view> kinds;  // its kinds, whose topics its read model folds
  // One aggregate's state folded from its events (all of one of `kinds`,
  // in order) as one JSON object, or "null" before its first event;
  // nullptr: as-of takes none of its kinds.
  std::string (*as_of)(const std::vector<AuditEvent>& events) = nullptr;
  // Its read model, written under `prefix`, as the services apply it.
  ReadModel (*read_model)(const std::string& prefix) = nullptr;
};

// The services' modules, in the order of services/services.txt (made by
// the build: cmake/Services.cmake), and every module, the keys' last.
const std::vector<const ViewModule*>& service_view_modules();
const ViewModule& keys_views();  // the platform's key registry (rebuild/apikeys.cpp)
const std::vector<const ViewModule*>& view_modules();
// The module whose kinds hold `k`, or null.
const ViewModule* view_of(Kind k);

}  // namespace petstore::audit
