#include "redis/script.h"

#include "text/digest.h"

namespace petstore::redis {

Script::Script(std::string_view source) : source_(source), sha_(text::sha1_hex(source)) {}

bool is_noscript(const redisReply& r) {
  return is_error(r) && as_string(r).starts_with("NOSCRIPT");
}

Args Script::command(std::string_view verb, std::string_view body, const Args& keys, const Args& args,
                     std::string& numkeys) const {
  numkeys = std::to_string(keys.size());
  Args out;
  out.reserve(3 + keys.size() + args.size());
  out.push_back(verb);
  out.push_back(body);
  out.push_back(numkeys);
  out.insert(out.end(), keys.begin(), keys.end());
  out.insert(out.end(), args.begin(), args.end());
  return out;
}

Reply Script::run(Connection& conn, const Args& keys, const Args& args) const {
  std::string numkeys;
  auto reply = conn.command(command("EVALSHA", sha_, keys, args, numkeys));
  if (is_noscript(*reply)) {
    reply = conn.command(command("EVAL", source_, keys, args, numkeys));
  }
  return reply;
}

void Script::append(Connection& conn, const Args& keys, const Args& args) const {
  std::string numkeys;
  conn.append(command("EVALSHA", sha_, keys, args, numkeys));
}

void Script::load(Connection& conn) const {
  expect_ok(conn.command({"SCRIPT", "LOAD", source_}));
}

std::vector<Reply> pipeline_scripts(Connection& conn, const ScriptList& scripts, std::size_t count,
                                    const std::function<void(Connection&)>& queue) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    queue(conn);
    std::vector<Reply> replies;
    replies.reserve(count);
    bool noscript = false;
    // Every reply is read, also after a NOSCRIPT, so the connection stays in step.
    for (std::size_t i = 0; i < count; ++i) {
      replies.push_back(conn.next_reply());
      noscript = noscript || is_noscript(*replies.back());
    }
    if (!noscript) {
      return replies;
    }
    for (const auto* s : scripts()) {
      s->load(conn);
    }
  }
  throw CommandError("scripts could not be loaded into Redis");
}

}  // namespace petstore::redis
