#include "projection/script_applier.h"

#include "embedded/apply_prelude.lua.h"
#include "es/errc.h"
#include "events/kafka_binding.h"
#include "log/log.h"

namespace petstore::projection {
namespace {

redis::Args view(const std::vector<std::string>& args) {
  return {args.begin(), args.end()};
}

}  // namespace

ScriptApplier::ScriptApplier(const es::KeySpace& space, std::string_view apply_lua, std::string service)
    : ScriptApplier(space, space.base(), apply_lua, std::move(service)) {}

ScriptApplier::ScriptApplier(const es::KeySpace& space, std::string base, std::string_view apply_lua,
                             std::string service, std::vector<std::string> extra_keys)
    : base_(std::move(base)),
      service_(std::move(service)),
      keys_{space.offsets(), space.ready_marker()},
      apply_(std::string(kApplyPreludeLua) + std::string(apply_lua)) {
  keys_.insert(keys_.end(), std::make_move_iterator(extra_keys.begin()),
               std::make_move_iterator(extra_keys.end()));
}

std::vector<const redis::Script*> ScriptApplier::scripts() const {
  return {&apply_};
}

redis::Args ScriptApplier::keys() const {
  return view(keys_);
}

void ScriptApplier::queue(redis::Connection& conn, const kafka::Message& m, std::int64_t previous) {
  const auto field = m.topic + ":" + std::to_string(m.partition);
  const auto position = std::to_string(m.offset) + "/" + std::to_string(previous);
  std::string event;
  try {
    const auto envelope = events::from_message(m);
    check(envelope);
    event = events::to_structured_json(envelope);
  } catch (const std::invalid_argument& e) {
    log::error("projection: skipping {}@{}: not a valid {} event: {}", field, m.offset, service_, e.what());
  }
  // Without an event (''), the script only records the position.
  apply_.append(conn, keys(), {field, position, base_, event});
}

es::ApplyOutcome ScriptApplier::apply_own(redis::Connection& conn, const events::Envelope& envelope,
                                          const std::vector<std::string>& context) const {
  std::vector<std::string> args{"", "0", base_, events::to_structured_json(envelope)};
  args.insert(args.end(), context.begin(), context.end());
  const auto reply = apply_.run(conn, keys(), view(args));
  return parse_apply_outcome(redis::as_string(redis::expect_ok(reply)));
}

std::vector<es::ApplyOutcome> ScriptApplier::apply_own_each(
    redis::Connection& conn, const std::vector<const events::Envelope*>& envelopes) const {
  std::vector<std::vector<std::string>> args;
  args.reserve(envelopes.size());
  for (const auto* e : envelopes) {
    args.push_back({"", "0", base_, events::to_structured_json(*e)});
  }
  // Applying is idempotent per event, so after a lost script cache the
  // batch is simply sent again (redis::pipeline_scripts).
  const auto scripts = [this] { return std::vector<const redis::Script*>{&apply_}; };
  const auto replies = redis::pipeline_scripts(conn, scripts, args.size(), [&](redis::Connection& c) {
    for (const auto& a : args) {
      apply_.append(c, keys(), view(a));
    }
  });
  std::vector<es::ApplyOutcome> out;
  out.reserve(replies.size());
  for (const auto& r : replies) {
    out.push_back(parse_apply_outcome(redis::as_string(redis::expect_ok(r))));
  }
  return out;
}

es::ApplyOutcome parse_apply_outcome(std::string_view reply) {
  if (reply == "applied") {
    return es::ApplyOutcome::Applied;
  }
  return reply == "duplicate" ? es::ApplyOutcome::Duplicate : es::ApplyOutcome::Behind;
}

void OwnEvents::apply(const es::Appended& appended, const std::vector<std::string>& context) const {
  committed([&] {
    const auto outcome = pool_.run_idempotent(
        [&](redis::Connection& c) { return projection_.apply_own(c, appended.envelope, context); });
    if (outcome == es::ApplyOutcome::Behind) {
      catch_up_.through(appended.topic, appended.position.partition, appended.position.offset);
    }
  });
}

void OwnEvents::apply(const std::vector<es::Appended>& appended) const {
  if (appended.empty()) {
    return;  // every command of the batch appended nothing
  }
  if (appended.size() == 1) {
    apply(appended.front());
    return;
  }
  std::vector<const events::Envelope*> envelopes;
  envelopes.reserve(appended.size());
  for (const auto& a : appended) {
    envelopes.push_back(&a.envelope);
  }
  committed([&] {
    const auto outcomes =
        pool_.run_idempotent([&](redis::Connection& c) { return projection_.apply_own_each(c, envelopes); });
    for (std::size_t i = 0; i < appended.size(); ++i) {
      if (outcomes[i] == es::ApplyOutcome::Behind) {
        catch_up_.through(appended[i].topic, appended[i].position.partition, appended[i].position.offset);
      }
    }
  });
}

void OwnEvents::committed(const std::function<void()>& apply) {
  try {
    apply();
  } catch (const redis::Unavailable& e) {
    log::warn("read model: a committed event is left to the projection ({})", e.what());
  } catch (const es::Error& e) {
    log::warn("read model: a committed event is left to the projection ({})", e.what());
  }
}

}  // namespace petstore::projection
