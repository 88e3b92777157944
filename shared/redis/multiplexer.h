#pragma once

#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "redis/connection.h"
#include "redis/script.h"

namespace petstore::redis {

// Sends the commands of many threads over one connection, pipelined: an I/O
// thread takes whatever is waiting, writes it in one go and hands each reply
// back. Under load Redis then reads and answers a batch per system call
// instead of one command per call, which roughly halves its CPU per read.
// Used for the read path; failures surface as Unavailable to every caller of
// the batch, and the next batch reconnects.
class Multiplexer {
 public:
  explicit Multiplexer(Endpoint endpoint);
  ~Multiplexer();
  Multiplexer(const Multiplexer&) = delete;
  Multiplexer& operator=(const Multiplexer&) = delete;

  // A wait of zero means "as long as the connection's own timeouts allow";
  // a shorter one throws Unavailable when no reply has come by then (the
  // command may still run; its reply is then dropped).
  using Wait = std::chrono::milliseconds;

  Reply command(const Args& args, Wait wait = Wait::zero());
  // Several commands, sent together (one round trip when the I/O thread is idle).
  std::vector<Reply> commands(const std::vector<Args>& all, Wait wait = Wait::zero());
  // EVALSHA, falling back to EVAL when Redis lost its script cache.
  Reply script(const Script& s, const Args& keys, const Args& args, Wait wait = Wait::zero());

 private:
  struct Pending {
    std::vector<std::string> args;
    std::promise<Reply> reply;
  };

  void loop();
  void run_batch(std::vector<std::unique_ptr<Pending>>& batch);
  void send(std::vector<std::unique_ptr<Pending>>& batch, size_t& answered);

  Endpoint endpoint_;
  std::unique_ptr<Connection> conn_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::unique_ptr<Pending>> queue_;
  bool stop_ = false;
  std::thread io_;
};

}  // namespace petstore::redis
