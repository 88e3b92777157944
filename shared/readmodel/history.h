#pragma once

#include <optional>
#include <string>

#include "readmodel/list_page.h"
#include "redis/multiplexer.h"

namespace petstore::readmodel {

// Every service's projection keeps each aggregate's events, in CloudEvents'
// structured JSON, in the sorted set "<aggregate key>:history" with the
// version as score (shared/projection/project.lua). It is a read model
// like any other: rebuilt from the log, and compared by petstore-audit's
// rebuild.
inline std::string history_key(const std::string& aggregate_key) {
  return aggregate_key + ":history";
}

// One page of an aggregate's history: its events after version `req.after`,
// in version order, and the version to continue after when more follow.
// nullopt for an aggregate no event names (a first page with nothing in it).
std::optional<Page<std::string>> history_page(redis::Multiplexer& reads, const std::string& aggregate_key,
                                              const PageRequest& req);

// The same, but an aggregate no event names is a DomainError (NotFound) with
// the service's own code and message.
Page<std::string> require_history(redis::Multiplexer& reads, const std::string& aggregate_key,
                                  const PageRequest& req, const char* not_found_code,
                                  const std::string& not_found_message);

}  // namespace petstore::readmodel
