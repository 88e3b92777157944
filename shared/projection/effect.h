#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace petstore::projection {

// One Redis command, as project.lua runs it.
using Command = std::vector<std::string>;

// What one aggregate holds in a read model, as its service's fold left it.
// Each service says how its state reads (Model::record); the diff of two
// records is what an event does to the read model (effect), so no service
// writes Redis commands of its own, and none folds its events twice.
struct Record {
  // The fields of the aggregate's own hash; an absent value deletes the
  // field. Every write sets them all: fields it does not list (the
  // version, which project.lua keeps, and what the write path keeps beside
  // the log) are left alone.
  std::vector<std::pair<std::string, std::optional<std::string>>> fields;
  // The sorted sets that list the aggregate, each with its score there; its
  // member is the aggregate's id.
  std::map<std::string, std::string> indexes;
  // The (hash, field) counters that count the aggregate as one.
  std::set<std::pair<std::string, std::string>> counts;
  // Fields of other hashes the aggregate keeps, by (hash, field): written
  // when they change, never deleted.
  std::map<std::pair<std::string, std::string>, std::string> entries;
  // Keys that live and die with the aggregate: deleted once it no longer
  // lists them.
  std::set<std::string> owned;
};

// The commands that take the read model of the aggregate `key`, whose id is
// `member`, from `before` to `after`: its fields, the indexes it joins or
// leaves, the counts it moves between, the entries that changed.
std::vector<Command> effect(const std::string& key, const std::string& member, const Record& before,
                            const Record& after);

}  // namespace petstore::projection
