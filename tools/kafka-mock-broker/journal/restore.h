#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "journal/store.h"

namespace petstore::tools::journal {

struct Restored {
  // Per partition: the records produced back, which is also the next offset.
  std::map<std::pair<std::string, std::int32_t>, std::int64_t> next;
  std::int64_t records = 0;
  double seconds = 0;
};

// Produces every journaled record back into the freshly started broker at
// `bootstrap`, whose topics exist and are empty: each to its own partition,
// with its key, value, headers and timestamp, in journal order, so each gets
// its old offset back. Checks the partitions' ends against the journal
// afterwards and throws std::runtime_error if any differs (a broker that
// then served would hand out offsets the journal already holds).
Restored restore(Store& store, const std::string& bootstrap);

}  // namespace petstore::tools::journal
