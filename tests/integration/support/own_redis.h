#pragma once

#include <memory>
#include <string>

#include "redis/connection.h"
#include "support/service_process.h"

namespace petstore::testing {

// A redis-server of the test's own, on a free port, with an append-only
// file (as production should have): a test may stop, freeze or starve it
// without disturbing the suite's shared Redis.
class OwnRedis {
 public:
  OwnRedis();
  ~OwnRedis();
  OwnRedis(const OwnRedis&) = delete;
  OwnRedis& operator=(const OwnRedis&) = delete;

  // Starts it (again, on its data) and returns once it answers PING.
  void start();
  void stop() { process_.reset(); }  // SIGTERM: Redis flushes its AOF and exits
  void crash();                      // SIGKILL: what it wrote is in its AOF (fsync always)
  void freeze();                     // SIGSTOP
  void thaw();                       // SIGCONT
  [[nodiscard]] int port() const { return port_; }
  // A connection to it, with the client's default timeouts.
  [[nodiscard]] redis::Connection connect() const;

 private:
  int port_;
  std::string dir_;
  std::unique_ptr<ServiceProcess> process_;
};

}  // namespace petstore::testing
