#include "projection/applier.h"

#include "embedded/project.lua.h"
#include "es/errc.h"
#include "log/log.h"

namespace petstore::projection {
namespace {

redis::Args view(const std::vector<std::string>& args) {
  return {args.begin(), args.end()};
}

void append_commands(std::vector<std::string>& args, const std::vector<Command>& commands) {
  args.push_back(std::to_string(commands.size()));
  for (const auto& c : commands) {
    args.push_back(std::to_string(c.size()));
    args.insert(args.end(), c.begin(), c.end());
  }
}

ApplyOutcome outcome_of(const redis::Reply& reply) {
  const auto text = redis::as_string(redis::expect_ok(reply));
  if (text == "applied") {
    return ApplyOutcome::Applied;
  }
  return text == "duplicate" ? ApplyOutcome::Duplicate : ApplyOutcome::Behind;
}

}  // namespace

const redis::Script& project_script() {
  static const redis::Script script(kProjectLua);
  return script;
}

void queue_step(redis::Connection& conn, const Step& step, const std::string& field,
                const std::string& position, const std::vector<Command>& settle) {
  const auto positions = step.space->offsets();
  const auto ready = step.space->ready_marker();
  std::vector<std::string> args{field, position, step.key, std::to_string(step.version), step.event};
  append_commands(args, step.writes);
  append_commands(args, settle);
  project_script().append(conn, {positions, ready}, view(args));
}

Command hmget(const std::string& key, std::span<const std::string_view> fields) {
  Command c{"HMGET", key};
  c.insert(c.end(), fields.begin(), fields.end());
  return c;
}

std::vector<redis::Reply> read_all(redis::Connection& conn, const std::vector<Command>& reads) {
  for (const auto& r : reads) {
    conn.append(view(r));
  }
  std::vector<redis::Reply> replies;
  replies.reserve(reads.size());
  for (std::size_t i = 0; i < reads.size(); ++i) {
    replies.push_back(conn.next_reply());
  }
  for (const auto& r : replies) {
    (void)redis::expect_ok(r);
  }
  return replies;
}

std::int64_t version_of(const redis::Reply& reply) {
  return reply->type == REDIS_REPLY_NIL ? 0 : redis::as_integer(*reply);
}

ApplyOutcome Applier::apply_own(redis::Connection& conn, const events::Envelope& event,
                                const std::vector<Command>& settle) {
  auto steps = fold(conn, {&event});
  const auto& step = steps.front();
  if (step.key.empty()) {
    throw std::invalid_argument("not a valid event of this read model: " + step.invalid);
  }
  // Folded from an older state than the event's predecessor: the
  // projection has events of this aggregate still to apply.
  if (!step.writer_may_apply) {
    return ApplyOutcome::Behind;
  }
  return apply_steps(conn, steps, settle).front();
}

std::vector<ApplyOutcome> Applier::apply_steps(redis::Connection& conn, const std::vector<Step>& steps,
                                               const std::vector<Command>& settle) {
  // Applying is idempotent per event, so after a lost script cache the
  // batch is simply sent again (redis::pipeline_scripts).
  const auto replies = redis::pipeline_scripts(
      conn, [] { return std::vector<const redis::Script*>{&project_script()}; }, steps.size(),
      [&](redis::Connection& c) {
        for (const auto& step : steps) {
          queue_step(c, step, "", "", settle);
        }
      });
  std::vector<ApplyOutcome> out;
  out.reserve(replies.size());
  for (const auto& reply : replies) {
    out.push_back(outcome_of(reply));
  }
  return out;
}

Applier& ByTopic::route(std::string_view topic) {
  const auto it = routes_.find(topic);
  if (it == routes_.end()) {
    throw std::logic_error("projection: no applier for topic " + std::string(topic));
  }
  return it->second->route(topic);
}

std::vector<Step> ByTopic::fold(redis::Connection& /*conn*/,
                                const std::vector<const events::Envelope*>& /*events*/) {
  throw std::logic_error("projection: ByTopic folds nothing itself; route() each record");
}

void apply_own_steps(redis::Pool& pool, es::CatchUp& catch_up,
                     const std::vector<const es::Appended*>& appended,
                     const std::function<std::vector<Step>()>& fold, const std::vector<Command>& settle) {
  // The events are in the log: the write succeeded whatever Redis says now
  // (down, or refusing with an error reply: OOM under maxmemory, READONLY
  // after a failover, MISCONF, a key of the wrong type), and the projection
  // applies them once Redis takes them.
  try {
    const auto steps = fold();
    const auto outcomes =
        pool.run_idempotent([&](redis::Connection& c) { return Applier::apply_steps(c, steps, settle); });
    for (std::size_t i = 0; i < appended.size(); ++i) {
      if (outcomes.at(i) == ApplyOutcome::Behind) {
        catch_up.through(appended[i]->topic, appended[i]->position.partition, appended[i]->position.offset);
      }
    }
  } catch (const std::exception& e) {
    log::warn("read model: a committed event is left to the projection ({})", e.what());
  }
}

}  // namespace petstore::projection
