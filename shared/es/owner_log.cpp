#include "es/owner_log.h"

#include <algorithm>
#include <thread>

#include "es/errc.h"
#include "events/kafka_binding.h"
#include "log/log.h"

namespace petstore::es {

OwnerLog::OwnerLog(kafka::Producer& producer, Settings settings, Ownership::State& state, OwnerHints* hints)
    : producer_(producer),
      settings_(std::move(settings)),
      hints_(hints),
      ownership_({settings_.brokers, settings_.group, settings_.topic, settings_.owner, settings_.linger_ms,
                  settings_.delivery_timeout_ms},
                 state),
      refusals_logged_(std::make_unique<log::Every>(std::chrono::seconds(1))) {}

std::int32_t OwnerLog::open() {
  if (mutexes_.empty()) {
    std::vector<std::mutex>(static_cast<size_t>(producer_.partitions(settings_.topic))).swap(mutexes_);
  }
  return partitions();
}

OwnerLog::~OwnerLog() {
  stop();
}

void OwnerLog::stop() {
  stop_ = true;
  if (thread_.joinable()) {
    thread_.join();
  }
}

void OwnerLog::resign() {
  // Before the leave, which may take a while (the broker's LeaveGroup): a
  // command that finds no writer meanwhile answers at once. Its new owner
  // claims it only after the group's rebalance, which can take seconds, so
  // waiting Settings::settle_wait for its
  // hint only held the stopping replica's exit, and with it its restart,
  // for as long (docs/reliability.md, "The stop resigns, then ends idle
  // connections").
  resigned_ = true;
  stop();
  ownership_.leave();
}

void OwnerLog::start() {
  open();
  thread_ = std::thread([this] { follow(); });
}

void OwnerLog::follow() {
  while (!stop_) {
    try {
      ownership_.poll(settings_.poll);
      record_hints();
    } catch (const std::exception& e) {
      // A claim the broker did not take in time: the partition stays
      // unowned here (commands on it get NotOwner) and is claimed again on
      // the next poll.
      log::warn("owner {} of {}: {}; trying again", settings_.owner, settings_.topic, e.what());
      std::this_thread::sleep_for(settings_.poll);
    }
  }
}

void OwnerLog::record_hints() {
  if (hints_ == nullptr) {
    return;
  }
  constexpr auto kRenewEvery = std::chrono::seconds(5);
  const auto owned = ownership_.owned();
  const auto now = std::chrono::steady_clock::now();
  const bool renew = now - hints_renewed_ > kRenewEvery;
  for (const auto p : owned) {
    if (renew || !std::ranges::binary_search(hinted_, p)) {
      hints_->record(p, settings_.url);
    }
  }
  if (renew) {
    hints_renewed_ = now;
  }
  hinted_ = owned;
}

OwnerLog::Held OwnerLog::hold(std::int32_t p, std::chrono::steady_clock::time_point until) {
  if (static_cast<size_t>(p) >= mutexes_.size()) {  // not started
    throw Error(Errc::NotOwner, settings_.owner + " does not write " + settings_.topic + " yet");
  }
  // While the group is sharing the partitions out (a replica joined or
  // left; the cooperative protocol moves only the partitions that change
  // hands, but those are nobody's until their new owner has claimed
  // them), and until the new owner has said where it answers,
  // ownership is about to be known: wait for it, briefly, rather than turn
  // every command of the moment away.
  const auto began = std::chrono::steady_clock::now();
  std::string hint;
  bool waited_out = false;
  for (;;) {
    std::unique_lock lock(mutexes_[static_cast<size_t>(p)]);
    // Looked up under the partition's lock: a fold of a new claim runs under
    // it too, so a writer found here has its whole fold behind it.
    if (auto writer = ownership_.writer(p)) {
      return {this, std::move(lock), std::move(writer), p};
    }
    lock.unlock();  // the hint's lookup may go to Redis: hold nobody up meanwhile
    const bool resigned = resigned_;
    if ((resigned || settled()) && hints_ != nullptr) {
      hint = hints_->lookup(p);
      if (hint == settings_.url) {
        hint.clear();  // this replica's own, from before the partition moved
      }
    }
    if (resigned || (settled() && (hints_ == nullptr || !hint.empty()))) {
      break;
    }
    if (std::chrono::steady_clock::now() >= until) {
      waited_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(settled() ? 50 : 20));
  }
  if (std::uint64_t held_back = 0; waited_out && refusals_logged_->due(held_back)) {
    // What a client sees as 503 writer_moving, said where an operator
    // looks: which partition, how long, and why it stayed unknown.
    log::warn(
        "owner {}: a command on {}/{} waited {} ms for the partition's owner to be known and is refused: {} "
        "({} more refused so since the last such line)",
        settings_.owner, settings_.topic, p,
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began)
            .count(),
        settled() ? "no other owner has said where it answers" : "the group is sharing the partitions out",
        held_back);
  }
  Error e(Errc::NotOwner, settings_.owner + " does not own " + settings_.topic + "/" + std::to_string(p));
  if (!hint.empty()) {
    throw std::move(e).with_owner_hint(std::move(hint));
  }
  throw e;
}

OwnerLog::Sending OwnerLog::Held::send(const NewEvent& event, const std::string& request) {
  auto e = new_envelope(event, log_->settings_.source);
  auto record = events::to_record(event.topic, e);
  if (!request.empty()) {
    record.headers.push_back({std::string(kRequestHeader), request});
  }
  return {std::move(e), writer_->send(record)};
}

void OwnerLog::Held::release_partition() {
  log_->ownership_.release(partition_, *writer_);
}

std::int32_t OwnerLog::partition_of(const std::string& key) const {
  return producer_.partition_for(settings_.topic, key);
}

}  // namespace petstore::es
