#include "rebuild/redis_space.h"

#include <functional>
#include <string_view>
#include <vector>

namespace petstore::audit {

namespace {

// SCAN's MATCH is a glob: the base is matched literally.
std::string glob_prefix(const std::string& base) {
  std::string out;
  for (const char c : base) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  return out + "*";
}

std::string text(const redisReply& r) {
  return std::string(redis::as_string(r));
}

// Calls `on_keys` with each batch of key names SCAN returns.
void scan(redis::Connection& conn, const std::string& base,
          const std::function<void(const std::vector<std::string>&)>& on_keys) {
  const auto pattern = glob_prefix(base);
  std::string cursor = "0";
  do {
    const auto reply = conn.command({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
    const auto& r = redis::expect_ok(reply);
    if (r.type != REDIS_REPLY_ARRAY || r.elements != 2 || r.element[1]->type != REDIS_REPLY_ARRAY) {
      throw redis::CommandError("SCAN: unexpected reply");
    }
    cursor = text(*r.element[0]);
    std::vector<std::string> keys;
    keys.reserve(r.element[1]->elements);
    for (std::size_t i = 0; i < r.element[1]->elements; ++i) {
      keys.push_back(text(*r.element[1]->element[i]));
    }
    if (!keys.empty()) {
      on_keys(keys);
    }
  } while (cursor != "0");
}

// Fills `content` from the reply to the read command queued for its type.
void fill(KeyContent& content, const redisReply& r) {
  if (content.type == "string") {
    content.entries[""] = text(r);
    return;
  }
  if (r.type != REDIS_REPLY_ARRAY) {
    throw redis::CommandError("reading a " + content.type + ": unexpected reply");
  }
  if (content.type == "hash" || content.type == "zset") {  // field, value, field, value, ...
    for (std::size_t i = 0; i + 1 < r.elements; i += 2) {
      content.entries[text(*r.element[i])] = text(*r.element[i + 1]);
    }
  } else if (content.type == "set") {
    for (std::size_t i = 0; i < r.elements; ++i) {
      content.entries[text(*r.element[i])] = "";
    }
  } else {  // list
    for (std::size_t i = 0; i < r.elements; ++i) {
      content.entries[std::to_string(i)] = text(*r.element[i]);
    }
  }
}

}  // namespace

Snapshot read_space(redis::Connection& conn, const std::string& base) {
  Snapshot out;
  scan(conn, base, [&](const std::vector<std::string>& keys) {
    for (const auto& k : keys) {
      conn.append({"TYPE", k});
    }
    std::vector<std::string> types;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const auto reply = conn.next_reply();
      types.push_back(text(redis::expect_ok(reply)));
    }
    std::vector<std::size_t> queued;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const auto& t = types[i];
      if (t == "hash") {
        conn.append({"HGETALL", keys[i]});
      } else if (t == "zset") {
        conn.append({"ZRANGE", keys[i], "0", "-1", "WITHSCORES"});
      } else if (t == "set") {
        conn.append({"SMEMBERS", keys[i]});
      } else if (t == "list") {
        conn.append({"LRANGE", keys[i], "0", "-1"});
      } else if (t == "string") {
        conn.append({"GET", keys[i]});
      } else {
        continue;  // "none": expired or deleted since SCAN saw it
      }
      queued.push_back(i);
    }
    for (const auto i : queued) {
      const auto reply = conn.next_reply();
      auto& content = out[keys[i].substr(base.size())];
      content.type = types[i];
      fill(content, redis::expect_ok(reply));
    }
  });
  return out;
}

std::int64_t clear_space(redis::Connection& conn, const std::string& base) {
  std::int64_t removed = 0;
  scan(conn, base, [&](const std::vector<std::string>& keys) {
    redis::Args args{"UNLINK"};
    args.insert(args.end(), keys.begin(), keys.end());
    removed += redis::as_integer(redis::expect_ok(conn.command(args)));
  });
  return removed;
}

}  // namespace petstore::audit
