#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "http/router.h"
#include "readmodel/page.h"

namespace petstore::http {

// A page of an aggregate's events, as CloudEvents in structured JSON, from
// the read model's history (readmodel::History).
using HistoryReader =
    std::function<readmodel::Page<std::string>(std::int64_t id, const readmodel::PageRequest& page)>;

// GET `path` (beta): the events of the aggregate whose id is the path's
// `param`, paginated by version (`limit`, `cursor`), as every service
// serves them.
void add_history_route(Router& router, const std::string& path, const char* param, HistoryReader history);

}  // namespace petstore::http
