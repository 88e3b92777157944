#include "projection/script_applier.h"

#include <spdlog/spdlog.h>

#include "embedded/apply_prelude.lua.h"
#include "events/kafka_binding.h"

namespace petstore::projection {
namespace {

redis::Args view(const std::vector<std::string>& args) {
  return {args.begin(), args.end()};
}

}  // namespace

ScriptApplier::ScriptApplier(const es::KeySpace& space, std::string_view apply_lua, std::string service)
    : ScriptApplier(space, space.base(), apply_lua, std::move(service)) {}

ScriptApplier::ScriptApplier(const es::KeySpace& space, std::string base, std::string_view apply_lua,
                             std::string service)
    : offsets_key_(space.offsets()),
      ready_key_(space.ready_marker()),
      base_(std::move(base)),
      service_(std::move(service)),
      apply_(std::string(kApplyPreludeLua) + std::string(apply_lua)) {}

std::vector<const redis::Script*> ScriptApplier::scripts() const {
  return {&apply_};
}

void ScriptApplier::queue(redis::Connection& conn, const kafka::Message& m, std::int64_t previous) {
  const auto field = m.topic + ":" + std::to_string(m.partition);
  const auto position = std::to_string(m.offset) + "/" + std::to_string(previous);
  try {
    const auto envelope = events::from_message(m);
    auto event_args = event_arguments(envelope);
    std::vector<std::string> args{field, position, base_, events::to_structured_json(envelope)};
    args.insert(args.end(), std::make_move_iterator(event_args.begin()),
                std::make_move_iterator(event_args.end()));
    apply_.append(conn, {offsets_key_, ready_key_}, view(args));
  } catch (const std::invalid_argument& e) {
    spdlog::error("projection: skipping {}@{}: not a valid {} event: {}", field, m.offset, service_,
                  e.what());
    apply_.append(conn, {offsets_key_, ready_key_}, {field, position, base_, ""});
  }
}

es::ApplyOutcome ScriptApplier::apply_own(redis::Connection& conn, const events::Envelope& envelope,
                                          std::vector<std::string> event_args) const {
  std::vector<std::string> args{"", "0", base_, events::to_structured_json(envelope)};
  args.insert(args.end(), std::make_move_iterator(event_args.begin()),
              std::make_move_iterator(event_args.end()));
  const auto reply = apply_.run(conn, {offsets_key_, ready_key_}, view(args));
  return parse_apply_outcome(redis::as_string(redis::expect_ok(reply)));
}

es::ApplyOutcome parse_apply_outcome(std::string_view reply) {
  if (reply == "applied") {
    return es::ApplyOutcome::Applied;
  }
  return reply == "duplicate" ? es::ApplyOutcome::Duplicate : es::ApplyOutcome::Behind;
}

}  // namespace petstore::projection
