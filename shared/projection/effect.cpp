#include "projection/effect.h"

namespace petstore::projection {

std::vector<Command> effect(const std::string& key, const std::string& member, const Record& before,
                            const Record& after) {
  std::vector<Command> out;
  Command set{"HSET", key};
  Command del{"HDEL", key};
  for (const auto& [name, value] : after.fields) {
    if (value) {
      set.insert(set.end(), {name, *value});
    } else {
      del.push_back(name);
    }
  }
  if (set.size() > 2) {
    out.push_back(std::move(set));
  }
  if (del.size() > 2) {
    out.push_back(std::move(del));
  }
  for (const auto& [index, score] : before.indexes) {
    if (!after.indexes.contains(index)) {
      out.push_back({"ZREM", index, member});
    }
  }
  for (const auto& [index, score] : after.indexes) {
    const auto was = before.indexes.find(index);
    if (was == before.indexes.end() || was->second != score) {
      out.push_back({"ZADD", index, score, member});
    }
  }
  for (const auto& [hash, name] : before.counts) {
    if (!after.counts.contains({hash, name})) {
      out.push_back({"HINCRBY", hash, name, "-1"});
    }
  }
  for (const auto& [hash, name] : after.counts) {
    if (!before.counts.contains({hash, name})) {
      out.push_back({"HINCRBY", hash, name, "1"});
    }
  }
  for (const auto& [where, value] : after.entries) {
    const auto was = before.entries.find(where);
    if (was == before.entries.end() || was->second != value) {
      out.push_back({"HSET", where.first, where.second, value});
    }
  }
  for (const auto& k : before.owned) {
    if (!after.owned.contains(k)) {
      out.push_back({"DEL", k});
    }
  }
  return out;
}

}  // namespace petstore::projection
