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

es::ApplyOutcome outcome_of(const redis::Reply& reply) {
  const auto text = redis::as_string(redis::expect_ok(reply));
  if (text == "applied") {
    return es::ApplyOutcome::Applied;
  }
  return text == "duplicate" ? es::ApplyOutcome::Duplicate : es::ApplyOutcome::Behind;
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

es::ApplyOutcome Applier::apply_own(redis::Connection& conn, const events::Envelope& event,
                                    const std::vector<Command>& settle) {
  const auto steps = fold(conn, {&event});
  const auto& step = steps.front();
  if (step.key.empty()) {
    throw std::invalid_argument("not a valid event of this read model: " + step.invalid);
  }
  // Folded from an older state than the event's predecessor: the
  // projection has events of this aggregate still to apply.
  if (!step.writer_may_apply) {
    return es::ApplyOutcome::Behind;
  }
  const auto replies = redis::pipeline_scripts(
      conn, [] { return std::vector<const redis::Script*>{&project_script()}; }, 1,
      [&](redis::Connection& c) { queue_step(c, step, "", "", settle); });
  return outcome_of(replies.front());
}

std::vector<es::ApplyOutcome> Applier::apply_own_each(redis::Connection& conn,
                                                      const std::vector<const events::Envelope*>& events) {
  const auto steps = fold(conn, events);
  std::vector<es::ApplyOutcome> out(steps.size(), es::ApplyOutcome::Behind);
  std::vector<std::size_t> run;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (!steps[i].key.empty() && steps[i].writer_may_apply) {
      run.push_back(i);
    }
  }
  // Applying is idempotent per event, so after a lost script cache the
  // batch is simply sent again (redis::pipeline_scripts).
  const auto replies = redis::pipeline_scripts(
      conn, [] { return std::vector<const redis::Script*>{&project_script()}; }, run.size(),
      [&](redis::Connection& c) {
        for (const auto i : run) {
          queue_step(c, steps[i], "", "");
        }
      });
  for (std::size_t j = 0; j < run.size(); ++j) {
    out[run[j]] = outcome_of(replies[j]);
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

void OwnEvents::apply(const es::Appended& appended, const std::vector<Command>& settle) const {
  committed([&] {
    const auto outcome = pool_.run_idempotent(
        [&](redis::Connection& c) { return projection_.apply_own(c, appended.envelope, settle); });
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
  // The event is in the log: the write succeeded whatever Redis says now
  // (down, or refusing with an error reply: OOM under maxmemory, READONLY
  // after a failover, MISCONF, a key of the wrong type), and the projection
  // applies it once Redis takes it.
  try {
    apply();
  } catch (const std::exception& e) {
    log::warn("read model: a committed event is left to the projection ({})", e.what());
  }
}

}  // namespace petstore::projection
