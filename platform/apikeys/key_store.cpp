#include "apikeys/key_store.h"

#include <map>
#include <stdexcept>

#include "apikeys/api_key.h"

namespace petstore::apikeys {
namespace {

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
  // A hash without a version holds only a key's rate-limit counters
  // (limit.lua keeps them in the same hash): the key is not in the registry.
  if (!f.contains("version")) {
    return std::nullopt;
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
  k.version = to_int(f, "version");
  return k;
}

}  // namespace

KeyStore::KeyStore(KeyWriter& writer, const OwnEvents& own, KeyRegistry& registry, redis::Pool& pool,
                   redis::Multiplexer& reads, std::string prefix, std::string topic)
    : writer_(writer),
      own_(own),
      registry_(registry),
      pool_(pool),
      reads_(reads),
      prefix_(std::move(prefix)),
      topic_(std::move(topic)) {}

std::optional<readmodel::Page<std::string>> KeyStore::history(const std::string& id,
                                                              const readmodel::PageRequest& page) {
  return readmodel::history_page(reads_, record_key(prefix_, id), page);
}

KeyRecord KeyStore::run(const std::string& id, const std::function<KeyDecision(const KeyState&)>& decide,
                        std::optional<Refusal>& refused) {
  const auto outcome = writer_.execute(id_bits(id), [&](const KeyWriter::Current& current) {
    auto decision = decide({current.version, current.state.revoked_at.has_value()});
    refused = decision.refusal;
    return std::move(decision.event);
  });
  own_.apply(outcome);
  const auto& k = outcome.state;
  return {id, k.plan, k.limits, k.name, k.created_at, k.revoked_at, outcome.version};
}

KeyStore::Issued KeyStore::issue(Plan plan, const ratelimit::Limits& limits, const std::string& name) {
  Issued out;
  out.key = generate_key();
  // A generated key always has the form identify() accepts.
  const auto identity = identify(out.key).value();
  std::optional<Refusal> refused;
  out.record = run(
      identity.id,
      [&](const KeyState& state) -> KeyDecision {
        // The id is 64 bits of a fresh key's digest: taken only by a key
        // issued before, which this one must not replace.
        if (state.version != 0) {
          throw std::runtime_error("a new key's id is taken; issue again");
        }
        return {KeyIssued{identity.id, identity.digest, plan, limits, name}, std::nullopt};
      },
      refused);
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
    const auto ids = c.command({"ZRANGE", registry_.model().index_key(), "0", "-1"});
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

namespace {

KeyStore::Change change_of(Refusal r) {
  return r == Refusal::NotFound ? KeyStore::Change::NotFound : KeyStore::Change::Revoked;
}

}  // namespace

KeyStore::Change KeyStore::replan(const std::string& id, Plan plan, const ratelimit::Limits& limits,
                                  KeyRecord& out) {
  std::optional<Refusal> refused;
  out = run(
      id, [&](const KeyState& state) { return decide_replan(state, id, plan, limits); }, refused);
  return refused ? change_of(*refused) : Change::Done;
}

KeyStore::Change KeyStore::revoke(const std::string& id, KeyRecord& out) {
  std::optional<Refusal> refused;
  out = run(
      id, [&](const KeyState& state) { return decide_revoke(state, id); }, refused);
  return refused ? change_of(*refused) : Change::Done;
}

}  // namespace petstore::apikeys
