#include "apikeys/key_registry.h"

#include <array>
#include <stdexcept>
#include <string_view>

#include "apikeys/api_key.h"
#include "text/datetime.h"

namespace petstore::apikeys {
namespace {

// Field order of the HMGET that state() reads; limit.lua reads the same.
constexpr std::array<std::string_view, 9> kFields = {
    "digest",          "name",         "created_at", "plan", "per_minute", "per_day",
    "minute_window_s", "day_window_s", "revoked_at"};

std::string text_of(const redisReply& r) {
  return r.type == REDIS_REPLY_NIL ? std::string() : std::string(redis::as_string(r));
}

std::int64_t integer_of(const redisReply& r) {
  return r.type == REDIS_REPLY_NIL ? 0 : redis::as_integer(r);
}

}  // namespace

KeyModel::KeyModel(const es::KeySpace& space, const std::string& prefix)
    : space_(space), prefix_(prefix), index_key_(prefix + ":apikeys") {}

KeyModel::Event KeyModel::decode(const events::Envelope& envelope) const {
  auto event = apikeys::decode(envelope.type, envelope.data);
  if (subject_of(event) != envelope.subject) {
    throw std::invalid_argument("ce_subject is not the keyId in the payload");
  }
  if (!text::parse_time_ms(envelope.time)) {
    throw std::invalid_argument("ce_time is not an RFC 3339 date-time");
  }
  return event;
}

std::string KeyModel::key(const Event& e) const {
  return record_key(prefix_, subject_of(e));
}

std::vector<projection::Command> KeyModel::reads(const std::vector<const Event*>& batch) const {
  return {projection::hmget(key(*batch.front()), kFields)};
}

KeyModel::State KeyModel::state(const std::vector<const Event*>& /*batch*/,
                                std::span<const redis::Reply> replies) const {
  const auto* v = replies.front()->element;
  State s;
  s.issued = v[0]->type != REDIS_REPLY_NIL;
  if (!s.issued) {
    return s;
  }
  s.digest = text_of(*v[0]);
  s.name = text_of(*v[1]);
  s.created_at = text_of(*v[2]);
  s.plan = parse_plan(text_of(*v[3])).value_or(Plan::Free);
  s.limits = {integer_of(*v[4]), integer_of(*v[5]), integer_of(*v[6]), integer_of(*v[7])};
  if (v[8]->type != REDIS_REPLY_NIL) {
    s.revoked_at = text_of(*v[8]);
  }
  return s;
}

void KeyModel::evolve(State& s, const Event& e, std::int64_t version, const std::string& time) const {
  apikeys::evolve(s, e, version, time);
}

projection::Record KeyModel::record(const State& s, const Event& /*e*/) const {
  projection::Record r;
  if (!s.issued) {
    return r;
  }
  r.fields = {{"digest", s.digest},
              {"name", s.name},
              {"created_at", s.created_at},
              {"plan", std::string(plan_name(s.plan))},
              {"per_minute", std::to_string(s.limits.per_minute)},
              {"per_day", std::to_string(s.limits.per_day)},
              {"minute_window_s", std::to_string(s.limits.short_window_s)},
              {"day_window_s", std::to_string(s.limits.long_window_s)},
              {"revoked_at", s.revoked_at}};
  // Listed by issue time (decode() has checked it reads).
  r.indexes.emplace(index_key_, std::to_string(text::parse_time_ms(s.created_at).value_or(0)));
  return r;
}

}  // namespace petstore::apikeys
