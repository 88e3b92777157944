#include "projection/reactor.h"

#include <spdlog/spdlog.h>

#include "embedded/skip.lua.h"
#include "projection/runner.h"

namespace petstore::projection {

Reactor::Reactor(const kafka::ConsumerSettings& settings, redis::Pool& pool, std::string positions_key,
                 Reaction& reaction, std::function<bool()> may_decide)
    : settings_(settings),
      pool_(pool),
      positions_key_(std::move(positions_key)),
      reaction_(reaction),
      may_decide_(std::move(may_decide)),
      record_(kSkipLua) {}

Reactor::~Reactor() {
  stop_ = true;
  if (thread_.joinable()) {
    thread_.join();
  }
}

void Reactor::start() {
  thread_ = std::thread([this] { loop(); });
}

std::map<kafka::TopicPartition, std::int64_t> Reactor::start_offsets(
    const std::vector<kafka::TopicPartition>& assigned) {
  joined_ = true;
  auto out = recorded_positions(pool_, positions_key_, assigned);
  for (auto& [tp, offset] : out) {
    ++offset;  // resume after the last record handled
  }
  return out;
}

void Reactor::loop() {
  kafka::Consumer consumer(settings_, [this](const auto& assigned) { return start_offsets(assigned); });
  while (!stop_) {
    for (const auto& m : consumer.poll(100, std::chrono::milliseconds(100))) {
      handle_until_done(m);
      if (stop_) {
        return;  // the next owner of the partition resumes from the recorded position
      }
      consumer.applied(m);
    }
  }
}

void Reactor::handle_until_done(const kafka::Message& m) {
  auto pause = std::chrono::milliseconds(10);
  while (!stop_) {
    if (!may_decide_()) {
      // A rebuild: its decisions would rest on partial state. Handling is
      // idempotent against the rebuilt state, so waiting loses nothing.
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    try {
      reaction_.handle(m);
      record(m);
      return;
    } catch (const std::exception& e) {
      spdlog::warn("reactor {}: {}@{}:{} not handled yet ({}); retrying", settings_.group_id, m.topic,
                   m.partition, m.offset, e.what());
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::milliseconds(1000));
    }
  }
}

void Reactor::record(const kafka::Message& m) {
  const auto field = m.topic + ":" + std::to_string(m.partition);
  const auto offset = std::to_string(m.offset);
  pool_.run_idempotent([&](redis::Connection& c) {
    return redis::expect_ok(record_.run(c, {positions_key_}, {field, offset})).type;
  });
}

}  // namespace petstore::projection
