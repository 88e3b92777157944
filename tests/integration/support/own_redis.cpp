#include "support/own_redis.h"

#include <signal.h>

#include <filesystem>
#include <thread>
#include <vector>

#include "support/stack.h"

namespace petstore::testing {

OwnRedis::OwnRedis() : port_(free_port()), dir_("/tmp/petstore-test-" + unique_name("redis")) {
  std::filesystem::create_directories(dir_);
  start();
}

OwnRedis::~OwnRedis() {
  process_.reset();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

void OwnRedis::start() {
  process_ = std::make_unique<ServiceProcess>(
      "/usr/bin/redis-server",
      std::vector<std::string>{"--port", std::to_string(port_), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "yes", "--appendfsync", "always", "--dir", dir_},
      port_);
  for (int i = 0; i < 100; ++i) {
    try {
      auto c = connect();
      if (!redis::is_error(*c.command({"PING"}))) {
        return;
      }
    } catch (const redis::Unavailable&) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  throw std::runtime_error("the test's redis did not start");
}

void OwnRedis::crash() {
  process_->kill_hard();
  process_.reset();
}

void OwnRedis::freeze() {
  kill(process_->pid(), SIGSTOP);
}

void OwnRedis::thaw() {
  kill(process_->pid(), SIGCONT);
}

redis::Connection OwnRedis::connect() const {
  redis::Endpoint e;
  e.port = port_;
  return redis::Connection(e);
}

}  // namespace petstore::testing
