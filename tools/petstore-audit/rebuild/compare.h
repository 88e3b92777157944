#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "es/key_space.h"

namespace petstore::audit {

// One Redis key's content in a form every type shares: a hash's fields, a
// sorted set's members (-> score), a set's members (-> ""), a list's indexes,
// a string under "".
struct KeyContent {
  std::string type;
  std::map<std::string, std::string> entries;
};

// The keys of one service's key space, by name relative to its base.
using Snapshot = std::map<std::string, KeyContent>;

struct Difference {
  std::string service;
  std::string key;     // relative to the service's base
  std::string detail;  // e.g. field status: live "sold", rebuilt "available"
};

// Every difference between the live read model and the one rebuilt from the
// log, leaving out what `not_from_log` covers. At most `per_key` details are
// listed for one key; the rest are counted in one more line.
std::vector<Difference> compare(const std::string& service, const Snapshot& live, const Snapshot& rebuilt,
                                const es::NotFromLog& not_from_log, std::size_t per_key = 10);

}  // namespace petstore::audit
