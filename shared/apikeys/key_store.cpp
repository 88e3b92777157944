#include "apikeys/key_store.h"

#include <chrono>
#include <map>

#include "apikeys/api_key.h"
#include "embedded/key_update.lua.h"
#include "events/envelope.h"

namespace petstore::apikeys {
namespace {

std::string now_text() {
  return events::format_time(std::chrono::system_clock::now());
}

std::int64_t to_int(const std::map<std::string, std::string>& f, const char* name) {
  const auto it = f.find(name);
  return it == f.end() ? 0 : std::stoll(it->second);
}

// A record from HGETALL's flat field/value array.
std::optional<KeyRecord> from_fields(const std::string& id, const redisReply& r) {
  if (r.type != REDIS_REPLY_ARRAY || r.elements == 0) {
    return std::nullopt;
  }
  std::map<std::string, std::string> f;
  for (size_t i = 0; i + 1 < r.elements; i += 2) {
    f.emplace(redis::as_string(*r.element[i]), redis::as_string(*r.element[i + 1]));
  }
  KeyRecord k;
  k.id = id;
  k.plan = parse_plan(f["plan"]).value_or(Plan::Free);
  k.limits = {to_int(f, "per_minute"), to_int(f, "per_day"), to_int(f, "minute_window_s"),
              to_int(f, "day_window_s")};
  k.name = f["name"];
  k.created_at = f["created_at"];
  if (const auto it = f.find("revoked_at"); it != f.end()) {
    k.revoked_at = it->second;
  }
  return k;
}

}  // namespace

KeyStore::KeyStore(redis::Pool& pool, std::string prefix)
    : pool_(pool), prefix_(std::move(prefix)), update_(kKeyUpdateLua) {}

KeyStore::Issued KeyStore::issue(Plan plan, const ratelimit::Limits& limits, const std::string& name) {
  Issued out;
  out.key = generate_key();
  const auto identity = identify(out.key);
  out.record = {identity->id, plan, limits, name, now_text(), std::nullopt};
  const auto record = record_key(prefix_, identity->id);
  const std::string values[] = {std::string(plan_name(plan)),
                                std::to_string(limits.per_minute),
                                std::to_string(limits.per_day),
                                std::to_string(limits.short_window_s),
                                std::to_string(limits.long_window_s),
                                std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                   std::chrono::system_clock::now().time_since_epoch())
                                                   .count())};
  pool_.run([&](redis::Connection& c) {
    // The record first: a key listed in the index always has one.
    redis::expect_ok(c.command({"HSET", record, "digest", identity->digest, "plan", values[0], "per_minute",
                                values[1], "per_day", values[2], "minute_window_s", values[3], "day_window_s",
                                values[4], "name", name, "created_at", out.record.created_at}));
    redis::expect_ok(c.command({"ZADD", index_key(), values[5], identity->id}));
    return 0;
  });
  return out;
}

std::optional<KeyRecord> KeyStore::find(const std::string& id) {
  const auto record = record_key(prefix_, id);
  const auto reply = pool_.run_idempotent([&](redis::Connection& c) {
    return c.command({"HGETALL", record});
  });
  return from_fields(id, redis::expect_ok(reply));
}

std::vector<KeyRecord> KeyStore::list() {
  return pool_.run_idempotent([&](redis::Connection& c) {
    std::vector<KeyRecord> out;
    const auto ids = c.command({"ZRANGE", index_key(), "0", "-1"});
    const auto& r = redis::expect_ok(ids);
    std::vector<std::string> names;
    names.reserve(r.elements);
    for (size_t i = 0; i < r.elements; ++i) {
      names.emplace_back(redis::as_string(*r.element[i]));
    }
    std::vector<std::string> records;
    records.reserve(names.size());
    for (const auto& id : names) {
      records.push_back(record_key(prefix_, id));
      c.append({"HGETALL", records.back()});
    }
    out.reserve(names.size());
    for (const auto& id : names) {
      if (auto k = from_fields(id, redis::expect_ok(c.next_reply()))) {
        out.push_back(std::move(*k));
      }
    }
    return out;
  });
}

KeyStore::Change KeyStore::replan(const std::string& id, Plan plan, const ratelimit::Limits& limits,
                                  KeyRecord& out) {
  const auto record = record_key(prefix_, id);
  const std::string args[] = {"replan",
                              std::string(plan_name(plan)),
                              std::to_string(limits.per_minute),
                              std::to_string(limits.per_day),
                              std::to_string(limits.short_window_s),
                              std::to_string(limits.long_window_s)};
  const auto reply = pool_.run([&](redis::Connection& c) {
    return update_.run(c, {record}, redis::Args(std::begin(args), std::end(args)));
  });
  const auto& r = redis::expect_ok(reply);
  if (r.type == REDIS_REPLY_INTEGER) {
    return r.integer == 0 ? Change::NotFound : Change::Revoked;
  }
  out = *from_fields(id, r);
  return Change::Done;
}

KeyStore::Change KeyStore::revoke(const std::string& id, KeyRecord& out) {
  const auto record = record_key(prefix_, id);
  const auto at = now_text();
  const auto reply = pool_.run([&](redis::Connection& c) {
    return update_.run(c, {record}, {"revoke", at});
  });
  const auto& r = redis::expect_ok(reply);
  if (r.type == REDIS_REPLY_INTEGER) {
    return Change::NotFound;
  }
  out = *from_fields(id, r);
  return Change::Done;
}

}  // namespace petstore::apikeys
