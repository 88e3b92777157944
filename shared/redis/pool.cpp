#include "redis/pool.h"

namespace petstore::redis {

Pool::Pool(Endpoint endpoint, size_t max_idle) : endpoint_(std::move(endpoint)), max_idle_(max_idle) {}

Pool::Lease::Lease(Pool& pool, bool force_new) : owner(pool) {
  if (!force_new) {
    const std::lock_guard lock(pool.mutex_);
    if (!pool.idle_.empty()) {
      conn = std::move(pool.idle_.back());
      pool.idle_.pop_back();
      reused = true;
      return;
    }
  }
  conn = std::make_unique<Connection>(pool.endpoint_);
}

Pool::Lease::~Lease() {
  if (!conn || conn->broken()) {
    return;
  }
  const std::lock_guard lock(owner.mutex_);
  if (owner.idle_.size() < owner.max_idle_) {
    owner.idle_.push_back(std::move(conn));
  }
}

}  // namespace petstore::redis
