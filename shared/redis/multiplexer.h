#pragma once

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "redis/connection.h"
#include "redis/script.h"

namespace petstore::redis {

// What a command submitted without waiting comes back with: its reply, or
// the failure (Unavailable) that kept it from getting one.
struct Outcome {
  Reply reply;
  std::exception_ptr failure;

  // The reply, or the failure rethrown.
  Reply take();
};

// Runs on the multiplexer's I/O thread: it must be quick and must not wait
// for Redis itself (hand blocking work to another thread).
using Callback = std::function<void(Outcome)>;

// Sends the commands of many threads over one connection, pipelined: an I/O
// thread takes whatever is waiting, writes it in one go and hands each reply
// back. Under load Redis then reads and answers a batch per system call
// instead of one command per call, which roughly halves its CPU per read.
// Used for the read path and the rate limiter; failures surface as
// Unavailable to every caller of the batch, and the next batch reconnects.
// Every command is answered within the endpoint's connect and command
// timeouts (twice that when queued behind a batch that timed out).
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

  // The same without waiting: `done` gets the outcome on the I/O thread.
  // This is what lets an event-driven HTTP front end serve a read with no
  // thread blocked on Redis.
  void submit(const Args& args, Callback done);
  void submit_script(const Script& s, const Args& keys, const Args& args, Callback done);

 private:
  struct Pending {
    std::vector<std::string> args;
    Callback done;
  };

  void enqueue(std::vector<std::unique_ptr<Pending>> pending);
  void loop();
  void run_batch(std::vector<std::unique_ptr<Pending>>& batch);
  void send(std::vector<std::unique_ptr<Pending>>& batch, size_t& answered);
  static void fail_rest(std::vector<std::unique_ptr<Pending>>& batch, size_t answered,
                        const std::exception_ptr& failure);
  static void deliver(Pending& p, Outcome outcome);

  Endpoint endpoint_;
  std::unique_ptr<Connection> conn_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::unique_ptr<Pending>> queue_;
  bool stop_ = false;
  std::thread io_;
};

}  // namespace petstore::redis
