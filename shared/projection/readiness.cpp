#include "projection/readiness.h"

#include <algorithm>

#include "embedded/readiness.lua.h"
#include "events/envelope.h"
#include "json/writer.h"
#include "log/log.h"
#include "metrics/registry.h"

namespace petstore::projection {
namespace {

constexpr int kWatermarkTimeoutMs = 2000;
constexpr auto kLogEvery = std::chrono::seconds(1);

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

Readiness::Readiness(kafka::Producer& producer, redis::Pool& pool, const es::KeySpace& space,
                     std::string service, std::chrono::milliseconds interval)
    : producer_(producer),
      pool_(pool),
      offsets_key_(space.offsets()),
      ready_key_(space.ready_marker()),
      service_(std::move(service)),
      interval_(interval),
      mark_ready_(kReadinessLua) {}

Readiness::~Readiness() {
  stop();
}

void Readiness::stop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
  }
}

void Readiness::start(std::vector<std::string> topics, std::function<void()> on_not_ready) {
  topics_ = std::move(topics);
  on_not_ready_ = std::move(on_not_ready);
  thread_ = std::thread([this] { loop(); });
}

std::string Readiness::describe() const {
  const auto p = progress();
  json::Writer w;
  w.begin_object()
      .field("state", p.ready        ? "ready"
                      : p.rebuilding ? "rebuilding"
                                     : "starting")
      .field("applied", p.applied)
      .field("total", p.total)
      .field("elapsedMs", static_cast<std::int64_t>(p.seconds * 1000))
      .end_object();
  return w.finish();
}

RebuildProgress Readiness::progress() const {
  std::lock_guard lock(mutex_);
  auto p = progress_;
  p.ready = ready_;
  return p;
}

void Readiness::loop() {
  auto last_failure = std::chrono::steady_clock::time_point{};
  for (;;) {
    try {
      check();
    } catch (const std::exception& e) {
      // Redis or Kafka is out: the marker cannot be read, so the state stays
      // as it was; the writes themselves fail on their own.
      if (std::chrono::steady_clock::now() - last_failure > kLogEvery) {
        log::warn("{} read model: readiness check failed: {}", service_, e.what());
        last_failure = std::chrono::steady_clock::now();
      }
    }
    std::unique_lock lock(mutex_);
    if (wake_.wait_for(lock, interval_, [this] { return stop_; })) {
      return;
    }
  }
}

std::vector<Readiness::Target> Readiness::sample_targets() {
  std::vector<Target> out;
  for (const auto& topic : topics_) {
    const auto marks = producer_.watermarks(topic, kWatermarkTimeoutMs);
    for (size_t p = 0; p < marks.size(); ++p) {
      if (marks[p].high > marks[p].low) {
        out.push_back({topic + ":" + std::to_string(p), marks[p].low, marks[p].high - 1});
      }
    }
  }
  return out;
}

void Readiness::begin_rebuild(bool starting) {
  targets_ = sample_targets();
  starting_ = starting;
  began_ = logged_ = std::chrono::steady_clock::now();
  std::int64_t total = 0;
  for (const auto& t : targets_) {
    total += t.last - t.low + 1;
  }
  {
    std::lock_guard lock(mutex_);
    progress_ = {false, true, 0, total, 0};
  }
  if (starting) {
    log::info("{} read model: starting; ready once it holds the log's {} events in {} partitions", service_,
              total, targets_.size());
  } else {
    static auto& rebuilds = metrics::Registry::global().counter(
        "petstore_projection_rebuilds_total", "Rebuilds of a read model found missing, wiped or behind.",
        {"service"});
    rebuilds.with({service_}).inc();
    log::warn(
        "{} read model: not ready (missing, wiped or behind); rebuilding it from the log: {} events "
        "in {} partitions",
        service_, total, targets_.size());
  }
}

void Readiness::check() {
  if (!started_) {
    // Whatever the marker says, a replica that starts serves nothing until
    // the read model holds what the log held when it started: Redis may
    // be behind (restored from an older snapshot, or the projection was
    // down while the log grew).
    begin_rebuild(true);
    started_ = true;
  } else if (!progress().rebuilding) {
    if (!rebuild_owed_) {
      const auto present = pool_.run_idempotent([&](redis::Connection& c) {
        return redis::as_integer(redis::expect_ok(c.command({"EXISTS", ready_key_})));
      });
      if (present == 1) {
        return;
      }
      ready_ = false;
      rebuild_owed_ = true;
    }
    // Owed until its targets are taken, even once another replica's
    // rebuild has set the marker again: otherwise this one would find the
    // marker, skip the rebuild, and never serve again.
    begin_rebuild(false);
    rebuild_owed_ = false;
  }

  on_not_ready_();
  std::vector<std::string> args{events::new_event_id()};
  for (const auto& t : targets_) {
    args.push_back(t.field);
    args.push_back(std::to_string(t.last));
  }
  const auto reply = pool_.run_idempotent([&](redis::Connection& c) {
    return mark_ready_.run(c, {offsets_key_, ready_key_}, redis::Args(args.begin(), args.end()));
  });
  const auto& r = redis::expect_ok(reply);
  std::int64_t applied = 0;
  for (size_t i = 0; i < targets_.size(); ++i) {
    const auto& t = targets_[i];
    const auto position = redis::as_integer(*r.element[i + 1]);
    applied += std::clamp<std::int64_t>(position - t.low + 1, 0, t.last - t.low + 1);
  }
  const bool done = redis::as_integer(*r.element[0]) == 1;
  static auto& ready = metrics::Registry::global().gauge(
      "petstore_projection_ready", "1 when the read model is a whole fold of the log, 0 while it is rebuilt.",
      {"service"});
  static auto& left = metrics::Registry::global().gauge("petstore_projection_rebuild_remaining_events",
                                                        "Events a rebuild still has to apply.", {"service"});
  ready.with({service_}).set(done ? 1 : 0);
  std::lock_guard lock(mutex_);
  progress_.applied = applied;
  progress_.seconds = seconds_since(began_);
  left.with({service_}).set(static_cast<double>(progress_.total - applied));
  if (done) {
    progress_.rebuilding = false;
    ready_ = true;
    log::info("{} read model: ready; {} {} of {} events in {:.1f} s", service_,
              starting_ ? "caught up with" : "rebuilt", applied, progress_.total, progress_.seconds);
  } else if (std::chrono::steady_clock::now() - logged_ >= kLogEvery) {
    logged_ = std::chrono::steady_clock::now();
    log::info("{} read model: rebuilding, {} of {} events applied ({:.0f}%, {:.1f} s)", service_, applied,
              progress_.total,
              progress_.total > 0
                  ? 100.0 * static_cast<double>(applied) / static_cast<double>(progress_.total)
                  : 100.0,
              progress_.seconds);
  }
}

}  // namespace petstore::projection
