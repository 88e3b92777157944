#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <future>
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

// Runs on the multiplexer's I/O thread when a command is answered: it must
// be quick and must not wait for Redis itself.
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
  // `lanes` connections, each with its own I/O thread; commands go to them
  // in turn, so several batches can be at Redis at once.
  explicit Multiplexer(Endpoint endpoint, size_t lanes = 1);
  ~Multiplexer();
  Multiplexer(const Multiplexer&) = delete;
  Multiplexer& operator=(const Multiplexer&) = delete;

  // A wait of zero means "as long as the connection's own timeouts allow";
  // a shorter one throws Unavailable when no reply has come by then (the
  // command may still run; its reply is then dropped).
  using Wait = std::chrono::milliseconds;

  // A command on its way: sent without waiting, its reply taken later, so a
  // caller can have its own next command (or other work) under way meanwhile.
  class Call {
   public:
    // The reply; Unavailable when none came within `wait` (see above).
    Reply get(Wait wait = Wait::zero());

   private:
    friend class Multiplexer;
    explicit Call(std::future<Outcome> reply) : reply_(std::move(reply)) {}
    std::future<Outcome> reply_;
  };

  // An EVALSHA on its way; get() falls back to EVAL (and waits for that)
  // when Redis lost its script cache.
  class ScriptCall {
   public:
    Reply get(Wait wait = Wait::zero());

   private:
    friend class Multiplexer;
    ScriptCall(Multiplexer& owner, const Script& script, std::vector<std::string> call, Call first)
        : owner_(&owner), script_(&script), call_(std::move(call)), first_(std::move(first)) {}
    Multiplexer* owner_;
    const Script* script_;
    std::vector<std::string> call_;  // EVALSHA sha numkeys keys... args...
    Call first_;
  };

  Call submit(const Args& args);
  ScriptCall submit_script(const Script& s, const Args& keys, const Args& args);

  Reply command(const Args& args, Wait wait = Wait::zero());
  // Several commands, sent together (one round trip when the I/O thread is idle).
  std::vector<Reply> commands(const std::vector<Args>& all, Wait wait = Wait::zero());
  // EVALSHA, falling back to EVAL when Redis lost its script cache.
  Reply script(const Script& s, const Args& keys, const Args& args, Wait wait = Wait::zero());

 private:
  struct Pending {
    std::vector<std::string> args;
    Callback done;
  };
  using Batch = std::vector<std::unique_ptr<Pending>>;

  // One connection and the thread that drives it.
  class Lane {
   public:
    explicit Lane(const Endpoint& endpoint);
    ~Lane();
    Lane(const Lane&) = delete;
    Lane& operator=(const Lane&) = delete;
    void enqueue(Batch pending);

   private:
    void loop();
    void run_batch(Batch& batch);
    void send(Batch& batch, size_t& answered);

    const Endpoint& endpoint_;
    std::unique_ptr<Connection> conn_;
    std::mutex mutex_;
    std::condition_variable wake_;
    Batch queue_;
    bool stop_ = false;
    std::thread io_;
  };

  void enqueue(Batch pending);
  // One command for a batch, and where its reply will be.
  static std::unique_ptr<Pending> pending(std::vector<std::string> args, std::future<Outcome>& reply);
  static void fail_rest(Batch& batch, size_t answered, const std::exception_ptr& failure);
  static void deliver(Pending& p, Outcome outcome);

  Endpoint endpoint_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::atomic<size_t> next_lane_{0};
};

}  // namespace petstore::redis
