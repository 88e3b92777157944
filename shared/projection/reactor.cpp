#include "projection/reactor.h"

#include <algorithm>
#include <future>
#include <optional>
#include <utility>

#include "log/log.h"
#include "projection/runner.h"

namespace petstore::projection {

Reaction::BegunEach Reaction::begin_each(const std::vector<Step>& steps) {
  BegunEach out{std::vector<std::exception_ptr>(steps.size()), {}};
  std::vector<Rest> rests;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    try {
      const trace::Scope span(steps[i].trace);
      if (auto r = begin(*steps[i].message)) {
        rests.push_back(std::move(r));
      }
    } catch (const std::exception&) {
      out.failed[i] = std::current_exception();
    }
  }
  if (!rests.empty()) {
    out.rest = [rests = std::move(rests)] {
      for (const auto& r : rests) {
        r();
      }
    };
  }
  return out;
}

namespace {

// A future already holding `value`: a batch of one partition is handled on
// the reactor's own thread.
template <typename T>
std::future<T> make_ready(T value) {
  std::promise<T> p;
  p.set_value(std::move(value));
  return p.get_future();
}

}  // namespace

Reactor::Reactor(const kafka::ConsumerSettings& settings, Reaction& reaction)
    : settings_(settings), reaction_(reaction) {}

Reactor::~Reactor() {
  stop_ = true;
  if (thread_.joinable()) {
    thread_.join();
  }
}

void Reactor::start() {
  thread_ = std::thread([this] { loop(); });
}

void Reactor::loop() {
  kafka::Consumer consumer(settings_, [this](const std::vector<kafka::TopicPartition>& assigned) {
    joined_ = true;
    std::map<kafka::TopicPartition, std::int64_t> committed;
    for (const auto& tp : assigned) {
      committed[tp] = RD_KAFKA_OFFSET_INVALID;  // the group's committed offset
    }
    return committed;
  });
  // A batch not handled and not yet given back (reading the committed
  // offsets or the seek failed): the consumer stands past records whose
  // steps have not run, so nothing is committed, and what is polled is
  // dropped, until a give-back succeeds. Polling on meanwhile serves the
  // group's rebalances.
  bool owed = false;
  // When the positions last went out (docs/consistency.md, "Saga steps":
  // a position is a resume point, so it may trail what is handled).
  auto committed_at = std::chrono::steady_clock::now();
  // When the last batch's handling began (Reaction::gather).
  std::chrono::steady_clock::time_point last_began;
  const auto commit_now = [&] {
    commit(consumer);
    committed_at = std::chrono::steady_clock::now();
  };
  while (!stop_) {
    if (owed) {
      owed = !give_back(consumer);
    }
    const bool gathers = reaction_.gather() > std::chrono::milliseconds::zero();
    if (gathers) {
      wait_to_gather(last_began);
    }
    const auto batch = consumer.poll(gathers ? kGatheredBatch : kBatch, std::chrono::milliseconds(100));
    if (owed) {
      continue;
    }
    if (batch.empty()) {
      // Quiet: what was handled, and the markers polled since (so that the
      // group's committed offset reaches the partition's end: GroupCatchUp).
      // Nothing goes out when nothing moved.
      commit_now();
      continue;
    }
    last_began = std::chrono::steady_clock::now();
    // Events that may touch the same aggregate, in log order, one after the
    // other; the others side by side (each saga step takes its aggregate's
    // lock, so side by side on one aggregate would only queue on the lock).
    std::map<std::string, Group> by_key;
    for (const auto& m : batch) {
      auto key = reaction_.affinity(m);
      if (key.empty()) {
        key = m.topic + ":" + std::to_string(m.partition);
      }
      by_key[key].push_back(&m);
    }
    std::vector<Group> groups;
    groups.reserve(by_key.size());
    for (auto& [key, events] : by_key) {
      groups.push_back(std::move(events));
    }
    const bool together = reaction_.begins_together() && groups.size() > 1;
    if (!(together ? handle_together(groups) : handle_side_by_side(groups))) {
      if (stop_) {
        return;  // the next owner of the partitions resumes from the committed positions
      }
      owed = !give_back(consumer);
      continue;
    }
    // Every event of the batch is handled (events of one partition may have
    // been handled out of order across aggregates, so only now). Under
    // load the positions go out once per kCommitEvery, not per batch.
    if (std::chrono::steady_clock::now() - committed_at >= kCommitEvery) {
      commit_now();
    }
    log_handled(batch);
  }
  if (!owed) {
    commit(consumer);  // what was handled since the last commit: less for the next owner to repeat
  }
}

trace::Context Reactor::step_trace(const std::string& group, const kafka::Message& m) {
  const auto seed =
      group + "/" + m.topic + "/" + std::to_string(m.partition) + "/" + std::to_string(m.offset);
  const auto* parent = m.header("ce_traceparent");
  const auto* state = m.header("ce_tracestate");
  const auto carried =
      parent != nullptr ? trace::parse(*parent, state != nullptr ? *state : std::string()) : std::nullopt;
  return carried ? trace::child(*carried, seed) : trace::start(seed);
}

void Reactor::log_handled(const std::vector<kafka::Message>& batch) const {
  if (!log::enabled(log::Level::info)) {
    return;
  }
  for (const auto& m : batch) {
    const auto* type = m.header("ce_type");
    const auto* subject = m.header("ce_subject");
    const trace::Scope span(step_trace(settings_.group_id, m));
    log::write(log::Level::info, "reactor handled an event",
               {{"reactor", settings_.group_id},
                {"type", type != nullptr ? std::string_view(*type) : std::string_view()},
                {"subject", subject != nullptr ? std::string_view(*subject) : std::string_view()},
                {"topic", m.topic},
                {"partition", std::to_string(m.partition), true},
                {"offset", std::to_string(m.offset), true}});
  }
}

void Reactor::commit(kafka::Consumer& consumer) {
  try {
    consumer.commit_positions();
  } catch (const std::exception& e) {
    // The next commit carries it; a restart meanwhile handles the batch
    // again, which changes nothing.
    log::warn("reactor {}: position not committed ({})", settings_.group_id, e.what());
  }
}

bool Reactor::give_back(kafka::Consumer& consumer) {
  try {
    consumer.rewind(consumer.assignment());
    log::warn("reactor {}: a step kept failing; the batch is read again from the committed positions",
              settings_.group_id);
    return true;
  } catch (const std::exception& e) {
    log::warn("reactor {}: batch not given back yet ({}); nothing is committed until it is",
              settings_.group_id, e.what());
    return false;
  }
}

bool Reactor::handle_side_by_side(const std::vector<Group>& groups) {
  std::vector<std::future<bool>> done;
  done.reserve(groups.size());
  for (const auto& events : groups) {
    const auto run = [this, &events] { return handle_group(events); };
    done.push_back(groups.size() == 1 ? make_ready(run()) : side_by_side_.run(run));
  }
  bool all = true;
  for (auto& f : done) {
    all = f.get() && all;
  }
  return all;
}

void Reactor::wait_to_gather(std::chrono::steady_clock::time_point last_began) const {
  // In slices, so that a stop is not held up by a long window.
  constexpr std::chrono::milliseconds kSlice{20};
  const auto until = last_began + reaction_.gather();
  for (auto now = std::chrono::steady_clock::now(); now < until && !stop_;
       now = std::chrono::steady_clock::now()) {
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(until - now, kSlice));
  }
}

bool Reactor::handle_together(const std::vector<Group>& groups) {
  // from[g]: group g's first event that is not handled by the rounds. A
  // group takes part in round r while from[g] == r: every event of it
  // before r was begun in a round.
  std::vector<std::size_t> from(groups.size(), 0);
  std::vector<Reaction::Rest> rests;  // round r's: what is left of each group's event r
  while (!stop_) {
    std::vector<std::size_t> who;
    std::vector<Reaction::Step> steps;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (from[g] == rests.size() && rests.size() < groups[g].size()) {
        who.push_back(g);
        const auto* m = groups[g][rests.size()];
        steps.push_back({m, step_trace(settings_.group_id, *m)});
      }
    }
    if (steps.empty()) {
      break;
    }
    Reaction::BegunEach begun;
    try {
      begun = reaction_.begin_each(steps);
    } catch (const std::exception&) {
      begun = {std::vector<std::exception_ptr>(steps.size(), std::current_exception()), {}};
    }
    for (std::size_t k = 0; k < who.size(); ++k) {
      // A group whose event was not begun goes on on its own from it
      // (handle_group), which logs it if it fails there too. Not logged
      // here: a step that another replica owns fails with NotOwner in a
      // batch, and is relayed by begin() on its own (service::ReactionRelay).
      if (!begun.failed.at(k)) {
        from[who[k]] = rests.size() + 1;
      }
    }
    rests.push_back(std::move(begun.rest));
  }
  for (std::size_t r = 0; r < rests.size(); ++r) {
    if (!rests[r]) {
      continue;
    }
    try {
      rests[r]();
    } catch (const std::exception& e) {
      // As in handle_group: each group's events from this round on are
      // handled again in full.
      log::warn(
          "reactor {}: round {} of a batch not confirmed ({}); handling its events and those after again",
          settings_.group_id, r, e.what());
      for (auto& f : from) {
        f = std::min(f, r);
      }
      break;
    }
  }
  std::vector<Group> rest;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (from[g] < groups[g].size()) {
      rest.emplace_back(groups[g].begin() + static_cast<std::ptrdiff_t>(from[g]), groups[g].end());
    }
  }
  return handle_side_by_side(rest);
}

bool Reactor::handle_group(const Group& events) {
  std::vector<Reaction::Rest> rest(events.size());
  for (size_t i = 0; i < events.size(); ++i) {
    if (!until_done(*events[i], [&] { rest[i] = reaction_.begin(*events[i]); })) {
      return false;
    }
  }
  for (size_t i = 0; i < events.size(); ++i) {
    if (!rest[i]) {
      continue;
    }
    try {
      rest[i]();
    } catch (const std::exception& e) {
      // Its event was not committed: the writer was given up, and the
      // events begun after it were decided on a fold that held it. Each is
      // idempotent against the log, so all are handled again in full.
      log::warn("reactor {}: {}@{}:{} not confirmed ({}); handling it and the {} after it again",
                settings_.group_id, events[i]->topic, events[i]->partition, events[i]->offset, e.what(),
                events.size() - i - 1);
      return std::all_of(events.begin() + static_cast<std::ptrdiff_t>(i), events.end(),
                         [this](const auto* m) { return until_done(*m, [&] { reaction_.handle(*m); }); });
    }
  }
  return true;
}

bool Reactor::until_done(const kafka::Message& m, const std::function<void()>& step) {
  auto pause = std::chrono::milliseconds(10);
  const auto give_up = std::chrono::steady_clock::now() + kGiveBackAfter;
  const trace::Scope span(step_trace(settings_.group_id, m));
  while (!stop_ && std::chrono::steady_clock::now() < give_up) {
    try {
      step();
      return true;
    } catch (const std::exception& e) {
      log::warn("reactor {}: {}@{}:{} not handled yet ({}); retrying", settings_.group_id, m.topic,
                m.partition, m.offset, e.what());
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::milliseconds(1000));
    }
  }
  return false;
}

}  // namespace petstore::projection
