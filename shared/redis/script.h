#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "redis/connection.h"

namespace petstore::redis {

// A Lua script run by EVALSHA, so each call sends the 40-byte digest rather
// than the source; after a Redis restart or SCRIPT FLUSH the first NOSCRIPT
// reply makes it send the source once with EVAL, which caches it again.
class Script {
 public:
  explicit Script(std::string_view source);

  Reply run(Connection& conn, const Args& keys, const Args& args) const;

  // For pipelines: queue an EVALSHA; check replies with is_noscript().
  void append(Connection& conn, const Args& keys, const Args& args) const;
  void load(Connection& conn) const;

  [[nodiscard]] const std::string& sha() const { return sha_; }
  [[nodiscard]] const std::string& source() const { return source_; }

 private:
  Args command(std::string_view verb, std::string_view body, const Args& keys, const Args& args,
               std::string& numkeys) const;

  std::string source_;
  std::string sha_;
};

[[nodiscard]] bool is_noscript(const redisReply& r);

// The scripts a pipeline may run; asked for only after a NOSCRIPT, so a
// pipeline that meets none costs nothing to list them.
using ScriptList = std::function<std::vector<const Script*>()>;

// Sends, in one pipeline, the `count` commands that `queue` appends (EVALSHA
// of `scripts`, with Script::append) and returns their replies in order.
// When any reply is NOSCRIPT, Redis lost its script cache (a restart, SCRIPT
// FLUSH): `scripts` are loaded and the whole pipeline is sent again, once, so
// every script it runs must be idempotent. Throws CommandError if a script
// is still missing after loading; other error replies are the caller's.
std::vector<Reply> pipeline_scripts(Connection& conn, const ScriptList& scripts, std::size_t count,
                                    const std::function<void(Connection&)>& queue);

}  // namespace petstore::redis
