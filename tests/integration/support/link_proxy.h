#pragma once

#include <atomic>
#include <chrono>
#include <list>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace petstore::testing {

// A TCP proxy on loopback between the clients of one broker listener and
// that listener, for faults of the link rather than of either end: the
// kernel here has no netem queueing discipline, and toxiproxy is no Debian
// package. The cluster's nodes advertise a listener of their own on the
// proxies' ports (scripts/lib.sh, start_kafka), so a client that
// bootstraps from them reaches every node through a LinkProxy.
//
// Each direction of a connection is a queue: what arrives is read at once
// and written on when its delay has passed and no stall holds it, as a
// link that is slow or down (with TCP retransmitting) behaves; nothing is
// dropped or reordered.
class LinkProxy {
 public:
  // Listens on 127.0.0.1:`listen_port`; each connection is forwarded to
  // 127.0.0.1:`target_port`.
  LinkProxy(int listen_port, int target_port);
  ~LinkProxy();
  LinkProxy(const LinkProxy&) = delete;
  LinkProxy& operator=(const LinkProxy&) = delete;

  // Each chunk passes `d` after it arrived (latency, both ways).
  void delay(std::chrono::milliseconds d);
  // While stalled nothing passes, either way; what arrived meanwhile passes
  // once the stall ends. Connections stay open: only the peers' own
  // timeouts notice.
  void stall(bool on);
  // Resets every open connection now (both peers see the connection
  // reset); new ones are taken as before.
  void cut();
  // Connections opened through the proxy so far.
  [[nodiscard]] int connections() const { return opened_; }

 private:
  class Link;

  void accept_loop();
  void wake_all();

  int listen_fd_ = -1;
  int target_port_;
  std::atomic<bool> stop_{false};
  std::atomic<long long> delay_ms_{0};
  std::atomic<bool> stalled_{false};
  std::atomic<int> opened_{0};
  std::mutex mutex_;
  std::list<std::unique_ptr<Link>> links_;
  std::thread acceptor_;
};

// A LinkProxy on each of the three-node cluster's LINK listeners: a client
// that bootstraps from Stack::cluster_link_brokers reaches every node
// through one, and each fault below takes all of its links at once.
class ClusterLinks {
 public:
  ClusterLinks();
  void delay(std::chrono::milliseconds d);
  void stall(bool on);
  void cut();
  // Connections opened through them so far.
  [[nodiscard]] int connections() const;

 private:
  std::vector<std::unique_ptr<LinkProxy>> links_;
};

}  // namespace petstore::testing
