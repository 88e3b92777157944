#include "projection/runner.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "embedded/record_positions.lua.h"
#include "events/kafka_binding.h"
#include "json/writer.h"
#include "log/log.h"
#include "redis/script.h"

namespace petstore::projection {

Runner::Runner(const kafka::ConsumerSettings& settings, redis::Pool& pool, std::string offsets_key,
               std::string ready_key, Applier& applier)
    : settings_(settings),
      pool_(pool),
      offsets_key_(std::move(offsets_key)),
      ready_key_(std::move(ready_key)),
      applier_(applier) {}

Runner::~Runner() {
  stop_ = true;
  if (thread_.joinable()) {
    thread_.join();
  }
}

void Runner::start() {
  thread_ = std::thread([this] { loop(); });
}

Applied recorded_positions(redis::Pool& pool, const std::string& positions_key,
                           const std::vector<kafka::TopicPartition>& partitions) {
  Applied out;
  pool.run_idempotent([&](redis::Connection& c) {
    out.clear();
    for (const auto& tp : partitions) {
      const auto reply = c.command({"HGET", positions_key, tp.topic + ":" + std::to_string(tp.partition)});
      if (reply->type != REDIS_REPLY_NIL) {
        out[tp] = redis::as_integer(redis::expect_ok(reply));
      }
    }
    return 0;
  });
  return out;
}

void record_positions(redis::Pool& pool, const std::string& positions_key, const Applied& from,
                      const Applied& to) {
  static const redis::Script script(kRecordPositionsLua);
  json::Writer json;
  json.begin_array();
  for (const auto& [tp, offset] : to) {
    const auto was = from.find(tp);
    // Strings: the script's cjson would read 64-bit numbers as doubles.
    json.begin_object()
        .field("partition", tp.topic + ":" + std::to_string(tp.partition))
        .field("offset", std::to_string(offset))
        .field("previous", std::to_string(was == from.end() ? -1 : was->second))
        .end_object();
  }
  json.end_array();
  const auto arg = json.finish();
  pool.run_idempotent(
      [&](redis::Connection& c) { return redis::expect_ok(script.run(c, {positions_key}, {arg})).type; });
}

std::map<kafka::TopicPartition, std::int64_t> Runner::start_offsets(
    const std::vector<kafka::TopicPartition>& assigned) {
  joined_ = true;
  const auto recorded = recorded_positions(pool_, offsets_key_, assigned);
  std::map<kafka::TopicPartition, std::int64_t> out;
  for (const auto& tp : assigned) {
    const auto it = recorded.find(tp);
    applied_[tp] = it == recorded.end() ? -1 : it->second;
    if (it != recorded.end()) {
      out[tp] = it->second + 1;
    }
  }
  return out;
}

bool Runner::until_done(const char* what, const std::function<void()>& step) {
  auto pause = std::chrono::milliseconds(10);
  for (;;) {
    try {
      step();
      return true;
    } catch (const std::exception& e) {
      ++stats_.redis_failures;
      log::warn("projection: {} failed ({}); retrying", what, e.what());
      if (stop_) {
        return false;
      }
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::milliseconds(1000));
    }
  }
}

std::vector<kafka::TopicPartition> Runner::lost_partitions(kafka::Consumer& consumer) {
  const auto assigned = consumer.assignment();
  const auto recorded = recorded_positions(pool_, offsets_key_, assigned);
  std::vector<kafka::TopicPartition> lost;
  for (const auto& tp : assigned) {
    const auto seen = recorded.find(tp);
    const auto here = applied_.find(tp);
    if ((seen == recorded.end() ? -1 : seen->second) < (here == applied_.end() ? -1 : here->second)) {
      lost.push_back(tp);
    }
  }
  return lost;
}

bool Runner::resume_lost(kafka::Consumer& consumer, const std::vector<kafka::TopicPartition>& lost) {
  for (const auto& tp : lost) {
    log::warn(
        "projection: the read model lost {}:{} (applied through {} here); replaying it from its "
        "recorded position",
        tp.topic, tp.partition, applied_[tp]);
  }
  stats_.rewinds += lost.size();
  return until_done("resuming lost partitions", [&] { consumer.rewind(lost); });
}

void Runner::loop() {
  kafka::Consumer consumer(
      settings_, [this](const auto& assigned) { return start_offsets(assigned); },
      [this](const kafka::TopicPartition& tp) { lost(tp); });
  while (!stop_) {
    if (verify_.exchange(false)) {
      std::vector<kafka::TopicPartition> lost;
      if (!until_done("comparing positions", [&] { lost = lost_partitions(consumer); })) {
        return;
      }
      if (!lost.empty() && !resume_lost(consumer, lost)) {
        return;
      }
    }
    const auto batch = consumer.poll(500, std::chrono::milliseconds(100));
    if (!batch.empty() && !apply(consumer, batch)) {
      return;  // unapplied; the next owner of these partitions replays them
    }
    // Once what was polled is applied (the position counts it), and at most
    // every kMarkersEvery, busy or idle: a quiet partition's trailing marker
    // is recorded even while others keep the consumer busy.
    if (const auto now = std::chrono::steady_clock::now(); now - markers_recorded_ >= kMarkersEvery) {
      if (!until_done("recording markers", [&] { record_markers(consumer); })) {
        return;
      }
      markers_recorded_ = now;
    }
  }
}

bool Runner::apply(kafka::Consumer& consumer, const std::vector<kafka::Message>& batch) {
  std::set<kafka::TopicPartition> gaps;
  // A failed attempt leaves applied_ as it was (apply_batch only advances
  // it on success) but may have applied part of the batch: the retry finds
  // those records applied already.
  const bool applied = until_done("applying events", [&] {
    gaps = pool_.run([&](redis::Connection& c) { return apply_batch(c, applier_, batch, applied_); });
  });
  if (!applied) {
    return false;
  }
  if (!gaps.empty() && !resume_lost(consumer, {gaps.begin(), gaps.end()})) {
    return false;
  }
  for (const auto& m : batch) {
    if (!gaps.contains({m.topic, m.partition})) {
      consumer.applied(m);
      ++stats_.applied;
    }
  }
  ++stats_.batches;
  return true;
}

void Runner::lost(const kafka::TopicPartition& tp) {
  until_done("recording a loss", [&] {
    pool_.run_idempotent([&](redis::Connection& c) {
      c.command({"DEL", ready_key_});
      return redis::expect_ok(
                 c.command({"HDEL", offsets_key_, tp.topic + ":" + std::to_string(tp.partition)}))
          .type;
    });
  });
  applied_[tp] = -1;
}

void Runner::record_markers(kafka::Consumer& consumer) {
  Applied passed;
  for (const auto& [tp, position] : consumer.positions()) {
    const auto it = applied_.find(tp);
    if (it != applied_.end() && position - 1 > it->second) {
      passed[tp] = position - 1;
    }
  }
  if (passed.empty()) {
    return;
  }
  record_positions(pool_, offsets_key_, applied_, passed);
  for (const auto& [tp, offset] : passed) {
    applied_[tp] = offset;
  }
}

std::set<kafka::TopicPartition> apply_batch(redis::Connection& conn, Applier& applier,
                                            const std::vector<kafka::Message>& batch, Applied& applied) {
  // Each record's event, and the Applier of its topic.
  std::vector<std::optional<events::Envelope>> envelopes(batch.size());
  std::map<Applier*, std::vector<std::size_t>> by_applier;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const auto& m = batch[i];
    try {
      envelopes[i] = events::from_message(m);
    } catch (const std::invalid_argument& e) {
      log::error("projection: skipping {}:{}@{}: not a CloudEvent: {}", m.topic, m.partition, m.offset,
                 e.what());
    }
    by_applier[&applier.route(m.topic)].push_back(i);
  }
  std::vector<Step> steps(batch.size());
  for (const auto& [target, records] : by_applier) {
    std::vector<const events::Envelope*> events;
    events.reserve(records.size());
    for (const auto i : records) {
      events.push_back(envelopes[i] ? &*envelopes[i] : nullptr);
    }
    auto folded = target->fold(conn, events);
    for (std::size_t j = 0; j < records.size(); ++j) {
      steps[records[j]] = std::move(folded[j]);
    }
  }
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (!steps[i].invalid.empty()) {
      log::error("projection: skipping {}:{}@{}: not a valid event: {}", batch[i].topic, batch[i].partition,
                 batch[i].offset, steps[i].invalid);
    }
  }
  // Applying is idempotent per record, so after a lost script cache the
  // batch is simply sent again (redis::pipeline_scripts).
  const auto scripts = [] { return std::vector<const redis::Script*>{&project_script()}; };
  const auto replies = redis::pipeline_scripts(conn, scripts, batch.size(), [&](redis::Connection& c) {
    Applied chain = applied;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const auto& m = batch[i];
      const auto at = chain.try_emplace({m.topic, m.partition}, -1).first;
      queue_step(c, steps[i], m.topic + ":" + std::to_string(m.partition),
                 std::to_string(m.offset) + "/" + std::to_string(at->second));
      at->second = m.offset;
    }
  });
  std::set<kafka::TopicPartition> gaps;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const auto& reply = *replies[i];
    if (redis::is_error(reply)) {
      throw redis::CommandError("projection script: " + std::string(redis::as_string(reply)));
    }
    if ((reply.type == REDIS_REPLY_STATUS || reply.type == REDIS_REPLY_STRING) &&
        redis::as_string(reply) == "gap") {
      gaps.insert({batch[i].topic, batch[i].partition});
    }
  }
  for (const auto& m : batch) {
    if (!gaps.contains({m.topic, m.partition})) {
      applied[{m.topic, m.partition}] = m.offset;
    }
  }
  return gaps;
}

}  // namespace petstore::projection
