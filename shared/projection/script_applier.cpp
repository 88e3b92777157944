#include "projection/script_applier.h"

#include <spdlog/spdlog.h>

#include "embedded/apply_prelude.lua.h"
#include "embedded/skip.lua.h"

namespace petstore::projection {
namespace {

redis::Args view(const std::vector<std::string>& args) {
  return {args.begin(), args.end()};
}

}  // namespace

ScriptApplier::ScriptApplier(std::string offsets_key, std::string base, std::string_view apply_lua,
                             std::string service)
    : offsets_key_(std::move(offsets_key)),
      base_(std::move(base)),
      service_(std::move(service)),
      apply_(std::string(kApplyPreludeLua) + std::string(apply_lua)),
      skip_(kSkipLua) {}

std::vector<const redis::Script*> ScriptApplier::scripts() const {
  return {&apply_, &skip_};
}

void ScriptApplier::queue(redis::Connection& conn, const kafka::Message& m) {
  const auto field = m.topic + ":" + std::to_string(m.partition);
  const auto offset = std::to_string(m.offset);
  try {
    const auto envelope = events::from_message(m);
    auto event_args = event_arguments(envelope);
    std::vector<std::string> args{field, offset, base_, events::to_structured_json(envelope)};
    args.insert(args.end(), std::make_move_iterator(event_args.begin()),
                std::make_move_iterator(event_args.end()));
    apply_.append(conn, {offsets_key_}, view(args));
  } catch (const std::invalid_argument& e) {
    spdlog::error("projection: skipping {}@{}: not a valid {} event: {}", field, offset, service_, e.what());
    skip_.append(conn, {offsets_key_}, {field, offset});
  }
}

es::ApplyOutcome ScriptApplier::apply_own(redis::Connection& conn, const events::Envelope& envelope,
                                          std::vector<std::string> event_args) const {
  std::vector<std::string> args{"", "0", base_, events::to_structured_json(envelope)};
  args.insert(args.end(), std::make_move_iterator(event_args.begin()),
              std::make_move_iterator(event_args.end()));
  const auto reply = apply_.run(conn, {offsets_key_}, view(args));
  return parse_apply_outcome(redis::as_string(redis::expect_ok(reply)));
}

es::ApplyOutcome parse_apply_outcome(std::string_view reply) {
  if (reply == "applied") {
    return es::ApplyOutcome::Applied;
  }
  return reply == "duplicate" ? es::ApplyOutcome::Duplicate : es::ApplyOutcome::Behind;
}

}  // namespace petstore::projection
