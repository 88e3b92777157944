#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
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

// Where one command's outcome lands: written once by the I/O thread, read
// once by the caller. Not std::promise: libstdc++'s set_value makes a futex
// call for its std::call_once and another to notify, whether or not anyone
// waits (perf of a pets replica under GETs: four in ten of its futex calls
// were pthread_once). Nor a mutex and condition variable: the I/O thread
// setting the slot while the caller goes to sleep on it contends for the
// mutex, and that cost a third of the replica's futex calls. A futex on the
// slot's state makes one call to sleep and one to wake, only when the
// caller really waits; a reply already in (a rate-limit check that came
// back with the read) costs none.
class ReplySlot {
 public:
  void set(Outcome outcome);
  // False when `deadline` passed first.
  bool wait_until(std::chrono::steady_clock::time_point deadline);
  void wait();
  // Waits, then moves the outcome out.
  Outcome take();

 private:
  static constexpr std::uint32_t kEmpty = 0;
  static constexpr std::uint32_t kWaiting = 1;  // the caller sleeps on the futex
  static constexpr std::uint32_t kFilled = 2;
  // The caller's wait, up to `deadline` (none: forever).
  bool sleep(const std::chrono::steady_clock::time_point* deadline);

  std::atomic<std::uint32_t> state_{kEmpty};
  Outcome outcome_;
};

// Sends the commands of many threads over one connection, pipelined: an I/O
// thread takes whatever is waiting, writes it in one go and hands each reply
// back. Under load Redis then reads and answers a batch per system call
// instead of one command per call, which roughly halves its CPU per read.
// A thread that waits for a reply of what its Cork held, with no deadline
// of its own, and finds its lane idle (no batch under way or waiting), runs
// that batch on the lane's connection itself: the one write and read it
// needs, without handing them to the I/O thread and being woken back
// (docs/performance.md, "The GET's hand-off"). Its wait is the same: the
// connection's own timeouts.
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
    explicit Call(std::shared_ptr<ReplySlot> reply) : reply_(std::move(reply)) {}
    std::shared_ptr<ReplySlot> reply_;
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

  // While a Cork lives, the commands its thread submits to this multiplexer
  // are held, and go to Redis as one batch when the thread first waits for
  // a reply (any Call::get) or when the Cork ends. A request that starts a
  // command and then makes another before waiting (the rate limiter's check
  // and a GET's read) then costs one write, one wake-up of the I/O thread and
  // one read at Redis instead of two of each. A Cork inside another on the
  // same thread holds nothing of its own. Use it on one thread only.
  //
  // A `trailer` command goes at the end of every batch the Cork sends, and
  // runs at Redis after every command of the batch (one connection, in
  // order): trailer() is then the answer to "after this thread's last
  // read, was ..." without a round trip of its own (the read model's ready
  // marker, service::Platform).
  class Cork {
   public:
    explicit Cork(Multiplexer& owner, Args trailer = {});
    ~Cork();
    Cork(const Cork&) = delete;
    Cork& operator=(const Cork&) = delete;

    // The reply of the trailer sent last (after sending what is held), or
    // nullopt when no batch went out under this Cork.
    std::optional<Call> trailer();

   private:
    bool outer_;
  };

  Reply command(const Args& args, Wait wait = Wait::zero());
  // Several commands, sent together (one round trip when the I/O thread is idle).
  std::vector<Reply> commands(const std::vector<Args>& all, Wait wait = Wait::zero());
  // EVALSHA, falling back to EVAL when Redis lost its script cache.
  Reply script(const Script& s, const Args& keys, const Args& args, Wait wait = Wait::zero());

 private:
  struct Pending {
    std::vector<std::string> args;
    std::shared_ptr<ReplySlot> reply;
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
    // Runs `pending` on the calling thread when the lane is idle, else
    // enqueues it for the I/O thread.
    void run_here(Batch pending);

   private:
    void loop();
    void run_batch(Batch& batch);
    void send(Batch& batch, size_t& answered);

    const Endpoint& endpoint_;
    std::unique_ptr<Connection> conn_;
    std::mutex mutex_;
    std::condition_variable wake_;
    Batch queue_;
    // A batch is under way on conn_, on the I/O thread or a caller's
    // (run_here): whoever set it is the only one on the connection.
    bool busy_ = false;
    bool stop_ = false;
    std::thread io_;
  };

  // Held while this thread's Cork for this multiplexer lives, else sent.
  void enqueue(Batch pending);
  // To a lane, in turn; `here`: on this thread if that lane is idle.
  void send_now(Batch pending, bool here = false);
  // What this thread's Cork holds, and for which multiplexer.
  struct Held {
    Multiplexer* owner = nullptr;
    Batch batch;
    std::vector<std::string> trailer;
    std::shared_ptr<ReplySlot> last_trailer;
  };
  static Held& held();
  // Sends what this thread's Cork holds, if anything; `here`: the thread
  // is about to wait for it within the connection's timeouts, so it may
  // run the batch itself (Lane::run_here).
  static void flush_corked(bool here = false);
  // One command for a batch, and where its reply will be.
  static std::unique_ptr<Pending> pending(std::vector<std::string> args, std::shared_ptr<ReplySlot>& reply);
  static void fail_rest(Batch& batch, size_t answered, const std::exception_ptr& failure);
  static void deliver(Pending& p, Outcome outcome);

  Endpoint endpoint_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::atomic<size_t> next_lane_{0};
};

}  // namespace petstore::redis
