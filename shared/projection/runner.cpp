#include "projection/runner.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <stdexcept>

namespace petstore::projection {

Runner::Runner(const kafka::ConsumerSettings& settings, redis::Pool& pool, std::string offsets_key,
               Applier& applier)
    : settings_(settings), pool_(pool), offsets_key_(std::move(offsets_key)), applier_(applier) {}

Runner::~Runner() {
  stop_ = true;
  if (thread_.joinable()) {
    thread_.join();
  }
}

void Runner::start() {
  thread_ = std::thread([this] { loop(); });
}

std::map<kafka::TopicPartition, std::int64_t> Runner::start_offsets(
    const std::vector<kafka::TopicPartition>& assigned) {
  joined_ = true;
  std::map<kafka::TopicPartition, std::int64_t> out;
  pool_.run_idempotent([&](redis::Connection& c) {
    for (const auto& tp : assigned) {
      const auto reply = c.command({"HGET", offsets_key_, tp.topic + ":" + std::to_string(tp.partition)});
      if (reply->type != REDIS_REPLY_NIL) {
        out[tp] = redis::as_integer(redis::expect_ok(reply)) + 1;
      }
    }
    return 0;
  });
  return out;
}

void Runner::loop() {
  kafka::Consumer consumer(settings_, [this](const auto& assigned) { return start_offsets(assigned); });
  while (!stop_) {
    const auto batch = consumer.poll(500, std::chrono::milliseconds(100));
    if (batch.empty()) {
      continue;
    }
    auto pause = std::chrono::milliseconds(10);
    for (;;) {
      try {
        apply(batch);
        break;
      } catch (const std::exception& e) {
        ++stats_.redis_failures;
        spdlog::warn("projection: applying {} events failed ({}); retrying", batch.size(), e.what());
        if (stop_) {
          return;  // unapplied; the next owner of these partitions replays them
        }
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(1000));
      }
    }
    for (const auto& m : batch) {
      consumer.applied(m);
    }
    stats_.applied += batch.size();
    ++stats_.batches;
  }
}

void Runner::apply(const std::vector<kafka::Message>& batch) {
  pool_.run([&](redis::Connection& c) {
    apply_batch(c, applier_, batch);
    return 0;
  });
}

void apply_batch(redis::Connection& conn, Applier& applier, const std::vector<kafka::Message>& batch) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    for (const auto& m : batch) {
      applier.queue(conn, m);
    }
    bool noscript = false;
    std::string failure;
    for (size_t i = 0; i < batch.size(); ++i) {
      const auto reply = conn.next_reply();
      if (redis::is_noscript(*reply)) {
        noscript = true;
      } else if (redis::is_error(*reply) && failure.empty()) {
        failure = std::string(redis::as_string(*reply));
      }
    }
    if (!failure.empty()) {
      throw redis::CommandError("projection script: " + failure);
    }
    if (!noscript) {
      return;
    }
    // Redis lost its script cache (restart, SCRIPT FLUSH). Applying is
    // idempotent per event, so the batch is simply sent again.
    for (const auto* s : applier.scripts()) {
      s->load(conn);
    }
  }
  throw redis::CommandError("projection scripts could not be loaded");
}

void ByTopic::queue(redis::Connection& conn, const kafka::Message& message) {
  const auto it = routes_.find(message.topic);
  if (it == routes_.end()) {
    throw std::logic_error("projection: no applier for topic " + message.topic);
  }
  it->second->queue(conn, message);
}

std::vector<const redis::Script*> ByTopic::scripts() const {
  std::vector<const redis::Script*> out;
  for (const auto& [topic, applier] : routes_) {
    for (const auto* s : applier->scripts()) {
      if (std::find(out.begin(), out.end(), s) == out.end()) {
        out.push_back(s);
      }
    }
  }
  return out;
}

}  // namespace petstore::projection
