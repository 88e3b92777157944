#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "redis/connection.h"

namespace petstore::redis {

// Hands each thread its own connection for the length of one call and keeps a
// few idle ones for reuse. A connection that failed is dropped, never reused.
class Pool {
 public:
  Pool(Endpoint endpoint, size_t max_idle);

  template <typename F>
  auto run(F&& fn) {
    Lease lease(*this);
    return fn(*lease.conn);
  }

  // For calls that are safe to send twice: a pooled connection can be stale
  // after a Redis restart, so one failure on a reused connection is retried on
  // a fresh one before giving up.
  template <typename F>
  auto run_idempotent(F&& fn) {
    {
      Lease lease(*this);
      if (lease.reused) {
        try {
          return fn(*lease.conn);
        } catch (const Unavailable&) {
        }
      } else {
        return fn(*lease.conn);
      }
    }
    Lease fresh(*this, /*force_new=*/true);
    return fn(*fresh.conn);
  }

  [[nodiscard]] const Endpoint& endpoint() const { return endpoint_; }

 private:
  struct Lease {
    explicit Lease(Pool& pool, bool force_new = false);
    ~Lease();
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Pool& owner;
    std::unique_ptr<Connection> conn;
    bool reused = false;
  };

  Endpoint endpoint_;
  size_t max_idle_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Connection>> idle_;
};

}  // namespace petstore::redis
