#include "apikeys/events.h"

#include <stdexcept>
#include <tuple>

#include "apikeys/api_key.h"
#include "json/event_fields.h"
#include "json/writer.h"
#include "util/overloaded.h"

namespace petstore::apikeys {
namespace {

void write_plan(json::Writer& w, Plan plan, const ratelimit::Limits& l) {
  w.field("plan", plan_name(plan))
      .field("perMinute", l.per_minute)
      .field("perDay", l.per_day)
      .field("minuteWindowSeconds", l.short_window_s)
      .field("dayWindowSeconds", l.long_window_s);
}

std::string key_id(const json::EventFields& f) {
  auto id = f.text("keyId");
  if (!is_key_id(id)) {
    throw std::invalid_argument("keyId is not 16 lowercase hex digits");
  }
  return id;
}

// A plan and limits as the admin API accepts them: a fixed plan's own
// limits, or valid enterprise limits.
std::pair<Plan, ratelimit::Limits> read_plan(const json::EventFields& f) {
  const auto plan = f.enumeration("plan", [](const std::string& s) { return parse_plan(s); });
  const ratelimit::Limits l{f.integer("perMinute"), f.integer("perDay"), f.integer("minuteWindowSeconds"),
                            f.integer("dayWindowSeconds")};
  if (const auto fixed = fixed_limits(plan)) {
    if (fixed->per_minute != l.per_minute || fixed->per_day != l.per_day ||
        fixed->short_window_s != l.short_window_s || fixed->long_window_s != l.long_window_s) {
      throw std::invalid_argument("limits differ from the plan's own");
    }
  } else if (const auto why = invalid_limits(l)) {
    throw std::invalid_argument(*why);
  }
  return {plan, l};
}

}  // namespace

const std::string& subject_of(const KeyEvent& e) {
  return std::visit([](const auto& ev) -> const std::string& { return ev.id; }, e);
}

std::string encode(const KeyEvent& e) {
  json::Writer w;
  w.begin_object();
  std::visit(Overloaded{
                 [&](const KeyIssued& ev) {
                   w.field("keyId", ev.id).field("digest", ev.digest);
                   write_plan(w, ev.plan, ev.limits);
                   w.field("name", ev.name);
                 },
                 [&](const KeyReplanned& ev) {
                   w.field("keyId", ev.id);
                   write_plan(w, ev.plan, ev.limits);
                 },
                 [&](const KeyRevoked& ev) { w.field("keyId", ev.id); },
             },
             e);
  return w.end_object().finish();
}

KeyEvent decode(std::string_view type, std::string_view data) {
  const json::EventFields f(data);
  if (type == KeyIssued::kType) {
    KeyIssued e;
    e.id = key_id(f);
    e.digest = f.text("digest");
    if (e.digest.size() != 64 || !e.digest.starts_with(e.id) ||
        e.digest.find_first_not_of("0123456789abcdef") != std::string::npos) {
      throw std::invalid_argument("digest is not the key's SHA-256 (64 hex digits, starting with its id)");
    }
    std::tie(e.plan, e.limits) = read_plan(f);
    e.name = f.text("name");
    return e;
  }
  if (type == KeyReplanned::kType) {
    KeyReplanned e;
    e.id = key_id(f);
    std::tie(e.plan, e.limits) = read_plan(f);
    return e;
  }
  if (type == KeyRevoked::kType) {
    return KeyRevoked{key_id(f)};
  }
  throw std::invalid_argument("not an API key event type");
}

void evolve(Key& key, const KeyEvent& e, std::int64_t /*version*/, const std::string& time) {
  std::visit(Overloaded{
                 [&](const KeyIssued& k) {
                   key.issued = true;
                   key.digest = k.digest;
                   key.name = k.name;
                   key.created_at = time;
                   key.plan = k.plan;
                   key.limits = k.limits;
                 },
                 [&](const KeyReplanned& k) {
                   key.plan = k.plan;
                   key.limits = k.limits;
                 },
                 // A revoked key stays listed, with the time of its revocation.
                 [&](const KeyRevoked&) { key.revoked_at = time; },
             },
             e);
}

KeyDecision decide_replan(const KeyState& state, const std::string& id, Plan plan,
                          const ratelimit::Limits& limits) {
  if (state.version == 0) {
    return {std::nullopt, Refusal::NotFound};
  }
  if (state.revoked) {
    return {std::nullopt, Refusal::Revoked};
  }
  return {KeyReplanned{id, plan, limits}, std::nullopt};
}

KeyDecision decide_revoke(const KeyState& state, const std::string& id) {
  if (state.version == 0) {
    return {std::nullopt, Refusal::NotFound};
  }
  if (state.revoked) {
    return {};
  }
  return {KeyRevoked{id}, std::nullopt};
}

}  // namespace petstore::apikeys
