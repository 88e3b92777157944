#include "es/ownership.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <future>

#include "log/log.h"

namespace petstore::es {

Ownership::Ownership(Settings settings, State& state)
    : settings_(std::move(settings)),
      state_(state),
      membership_(settings_.brokers, settings_.group, settings_.owner, settings_.topic) {}

void Ownership::poll(std::chrono::milliseconds wait) {
  const auto assigned = membership_.poll(wait);
  std::vector<std::int32_t> lost;
  {
    const std::lock_guard lock(mutex_);
    std::erase_if(writers_, [&](const auto& w) {
      if (std::ranges::binary_search(assigned, w.first)) {
        return false;
      }
      lost.push_back(w.first);
      return true;
    });
  }
  for (const auto p : lost) {
    state_.forget(p);
  }
  std::vector<std::int32_t> fresh;
  bool waiting = false;  // a partition released a moment ago waits (Settings::reclaim_after)
  {
    const std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    for (const auto p : assigned) {
      if (writers_.contains(p)) {
        continue;
      }
      if (const auto it = released_.find(p);
          it != released_.end() && now - it->second < settings_.reclaim_after) {
        waiting = true;
        continue;
      }
      fresh.push_back(p);
    }
  }
  // The partitions newly assigned are claimed side by side, each taking
  // commands as soon as its own fold is done. A fold reads the partition's
  // history one fetch after another, so it mostly waits; claimed one after
  // another, each new partition waited for all the folds before it
  // (docs/reliability.md, "The stop resigns, then ends idle connections").
  std::vector<std::future<void>> claims;
  claims.reserve(fresh.size());
  for (const auto p : fresh) {
    claims.push_back(std::async(std::launch::async, [this, p] { claim(p); }));
  }
  std::exception_ptr failed;
  for (auto& c : claims) {
    try {
      c.get();
    } catch (...) {
      if (!failed) {
        failed = std::current_exception();
      }
    }
  }
  if (failed) {
    // The partitions not claimed are tried again on the next poll.
    settled_ = false;
    std::rethrow_exception(failed);
  }
  settled_ = membership_.assigned() && !waiting;
}

void Ownership::claim(std::int32_t p) {
  auto w = std::make_shared<PartitionWriter>(PartitionWriter::Settings{
      settings_.brokers, settings_.topic, p, settings_.owner, std::chrono::milliseconds(5000),
      settings_.linger_ms, settings_.delivery_timeout_ms});
  state_.forget(p);
  const auto started = std::chrono::steady_clock::now();
  std::int64_t folded = 0;
  w->claim([&](const kafka::Message& m) {
    state_.fold(p, m);
    ++folded;
  });
  // A claim folds the partition's whole history: how long that took is
  // what a replica's readiness waits for after a rebalance.
  log::info("owner {} claimed {}/{}: {} records folded in {} ms", settings_.owner, settings_.topic, p, folded,
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started)
                .count());
  const std::lock_guard lock(mutex_);
  writers_.emplace(p, std::move(w));
  released_.erase(p);
}

std::shared_ptr<PartitionWriter> Ownership::writer(std::int32_t partition) const {
  const std::lock_guard lock(mutex_);
  const auto it = writers_.find(partition);
  return it == writers_.end() ? nullptr : it->second;
}

void Ownership::release(std::int32_t partition, const PartitionWriter& writer) {
  const std::lock_guard lock(mutex_);
  const auto it = writers_.find(partition);
  if (it != writers_.end() && it->second.get() == &writer) {
    writers_.erase(it);
    released_.insert_or_assign(partition, std::chrono::steady_clock::now());
  }
}

void Ownership::leave() {
  std::map<std::int32_t, std::shared_ptr<PartitionWriter>> gone;
  {
    const std::lock_guard lock(mutex_);
    gone.swap(writers_);
  }
  for (const auto& [p, w] : gone) {
    state_.forget(p);
  }
  membership_.leave();
  // Nothing is assigned here any more, which is a share too: commands are
  // forwarded to the new owners as soon as they say where they answer.
  settled_ = true;
  log::info("owner {} left the writers of {}: {} partitions handed over", settings_.owner, settings_.topic,
            gone.size());
}

std::vector<std::int32_t> Ownership::owned() const {
  const std::lock_guard lock(mutex_);
  std::vector<std::int32_t> out;
  out.reserve(writers_.size());
  for (const auto& [p, w] : writers_) {
    out.push_back(p);
  }
  return out;
}

}  // namespace petstore::es
