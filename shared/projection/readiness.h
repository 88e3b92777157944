#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "es/key_space.h"
#include "kafka/producer.h"
#include "redis/pool.h"
#include "redis/script.h"

namespace petstore::projection {

// How far a rebuild has come: records of the log applied out of those it
// must apply, counted over the partitions' offsets when it began.
struct RebuildProgress {
  bool ready = false;
  bool rebuilding = false;  // false before the first check
  std::int64_t applied = 0;
  std::int64_t total = 0;
  double seconds = 0;  // since the rebuild began
};

// Whether one service's read model may be decided on: it is when its ready
// marker (es::KeySpace::ready_marker) is present. A wipe takes the marker
// with everything else; a projection that finds its positions lost deletes
// it (project.lua). Every replica watches the marker; on finding it
// gone it takes the end of every partition of the service's topics as the
// target and waits until the projection (of whichever replica owns each
// partition; Runner replays lost partitions from their start) has applied
// every partition through its target, then sets the marker again, in one
// script so no wipe can slip in between. A replica that starts does the
// same whatever the marker says, so a read model that is behind the log
// (an older snapshot) is caught up before it serves. Progress goes to the
// log and to /readyz. Only records appended before the rebuild began are waited for:
// writes are refused meanwhile, so none of this service's own is missed.
class Readiness {
 public:
  Readiness(kafka::Producer& producer, redis::Pool& pool, const es::KeySpace& space, std::string service,
            std::chrono::milliseconds interval = std::chrono::milliseconds(100));
  ~Readiness();
  Readiness(const Readiness&) = delete;
  Readiness& operator=(const Readiness&) = delete;

  // Starts watching the read model projected from `topics`; until the
  // first check it is not ready. `on_not_ready` runs on every check that
  // finds it not ready (Runner::verify_positions: a projection with no new
  // record to apply would not notice the loss by itself).
  void start(std::vector<std::string> topics, std::function<void()> on_not_ready);
  // Stops watching (before whatever on_not_ready touches goes away).
  void stop();
  [[nodiscard]] bool ready() const { return ready_; }
  // {"state": "starting"|"rebuilding"|"ready", "applied", "total", "elapsedMs"}
  [[nodiscard]] std::string describe() const;
  [[nodiscard]] RebuildProgress progress() const;

 private:
  struct Target {
    std::string field;  // "<topic>:<partition>"
    std::int64_t low = 0;
    std::int64_t last = 0;  // offset of the partition's last record
  };

  void loop();
  void check();
  void begin_rebuild(bool starting);
  std::vector<Target> sample_targets();

  kafka::Producer& producer_;
  redis::Pool& pool_;
  std::string offsets_key_;
  std::string ready_key_;
  std::vector<std::string> topics_;
  std::string service_;
  std::chrono::milliseconds interval_;
  std::function<void()> on_not_ready_;
  redis::Script mark_ready_;

  std::atomic<bool> ready_{false};
  std::vector<Target> targets_;  // the checking thread's alone, like started_
  bool started_ = false;
  bool starting_ = false;  // the current catch-up is the one at start
  // The marker went and this replica stopped serving, but the rebuild's
  // targets are not taken yet (the broker did not answer): tried again
  // on every check, whatever the marker says by then.
  bool rebuild_owed_ = false;
  std::chrono::steady_clock::time_point began_;
  std::chrono::steady_clock::time_point logged_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  RebuildProgress progress_;
  std::thread thread_;
};

}  // namespace petstore::projection
