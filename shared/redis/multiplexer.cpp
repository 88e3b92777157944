#include "redis/multiplexer.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ctime>

#include <algorithm>

namespace petstore::redis {

Reply Outcome::take() {
  if (failure) {
    std::rethrow_exception(failure);
  }
  return std::move(reply);
}

namespace {

// Linux futexes on a 32-bit word private to this process (futex(2)).
void futex_wake_one(std::atomic<std::uint32_t>& word) {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}

// Sleeps while `word` holds `expected`, at most `timeout` (null: no limit).
void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected, const timespec* timeout) {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected, timeout, nullptr,
          0);
}

}  // namespace

void ReplySlot::set(Outcome outcome) {
  outcome_ = std::move(outcome);
  if (state_.exchange(kFilled, std::memory_order_acq_rel) == kWaiting) {
    futex_wake_one(state_);
  }
}

bool ReplySlot::sleep(const std::chrono::steady_clock::time_point* deadline) {
  for (;;) {
    auto s = state_.load(std::memory_order_acquire);
    if (s == kFilled) {
      return true;
    }
    if (s == kEmpty && !state_.compare_exchange_strong(s, kWaiting, std::memory_order_acq_rel)) {
      continue;  // filled meanwhile
    }
    if (deadline == nullptr) {
      futex_wait(state_, kWaiting, nullptr);
      continue;
    }
    const auto left = *deadline - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) {
      return state_.load(std::memory_order_acquire) == kFilled;
    }
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
    const timespec timeout{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
    futex_wait(state_, kWaiting, &timeout);  // woken, timed out, or interrupted: look again
  }
}

bool ReplySlot::wait_until(std::chrono::steady_clock::time_point deadline) {
  return sleep(&deadline);
}

void ReplySlot::wait() {
  sleep(nullptr);
}

Outcome ReplySlot::take() {
  wait();
  return std::move(outcome_);
}

Multiplexer::Multiplexer(Endpoint endpoint, size_t lanes) : endpoint_(std::move(endpoint)) {
  for (size_t i = 0; i < std::max<size_t>(1, lanes); ++i) {
    lanes_.push_back(std::make_unique<Lane>(endpoint_));
  }
}

Multiplexer::~Multiplexer() = default;

Multiplexer::Lane::Lane(const Endpoint& endpoint) : endpoint_(endpoint), io_([this] { loop(); }) {}

Multiplexer::Lane::~Lane() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  io_.join();
}

std::unique_ptr<Multiplexer::Pending> Multiplexer::pending(std::vector<std::string> args,
                                                           std::shared_ptr<ReplySlot>& reply) {
  reply = std::make_shared<ReplySlot>();
  return std::make_unique<Pending>(Pending{std::move(args), reply});
}

Multiplexer::Held& Multiplexer::held() {
  thread_local Held h;
  return h;
}

Multiplexer::Cork::Cork(Multiplexer& owner, Args trailer) : outer_(held().owner == nullptr) {
  if (outer_) {
    auto& h = held();
    h.owner = &owner;
    h.trailer.assign(trailer.begin(), trailer.end());
    h.last_trailer.reset();
  }
}

Multiplexer::Cork::~Cork() {
  if (outer_) {
    flush_corked();
    auto& h = held();
    h.owner = nullptr;
    h.trailer.clear();
    h.last_trailer.reset();
  }
}

std::optional<Multiplexer::Call> Multiplexer::Cork::trailer() {
  flush_corked();
  auto& h = held();
  if (!outer_ || !h.last_trailer) {
    return std::nullopt;
  }
  return Call(h.last_trailer);
}

void Multiplexer::flush_corked(bool here) {
  auto& h = held();
  if (h.owner != nullptr && !h.batch.empty()) {
    Batch batch;
    batch.swap(h.batch);
    if (!h.trailer.empty()) {
      batch.push_back(pending(h.trailer, h.last_trailer));
    }
    h.owner->send_now(std::move(batch), here);
  }
}

Reply Multiplexer::Call::get(Wait wait) {
  // With no deadline of its own the caller waits as long as the connection
  // allows, whoever runs the batch: it may run it itself.
  flush_corked(wait == Wait::zero());
  // Bounded: the I/O thread answers every request within the connect and
  // command timeouts, with a reply or an Unavailable.
  if (wait != Wait::zero() && !reply_->wait_until(std::chrono::steady_clock::now() + wait)) {
    throw Unavailable("redis: no reply within " + std::to_string(wait.count()) + " ms");
  }
  return reply_->take().take();
}

Multiplexer::Call Multiplexer::submit(const Args& args) {
  std::shared_ptr<ReplySlot> reply;
  Batch batch;
  batch.push_back(pending({args.begin(), args.end()}, reply));
  enqueue(std::move(batch));
  return Call(std::move(reply));
}

Reply Multiplexer::command(const Args& args, Wait wait) {
  return submit(args).get(wait);
}

std::vector<Reply> Multiplexer::commands(const std::vector<Args>& all, Wait wait) {
  std::vector<std::shared_ptr<ReplySlot>> futures(all.size());
  Batch batch;
  batch.reserve(all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    batch.push_back(pending({all[i].begin(), all[i].end()}, futures[i]));
  }
  enqueue(std::move(batch));
  flush_corked();
  std::vector<Reply> replies;
  replies.reserve(futures.size());
  const auto give_up = std::chrono::steady_clock::now() + wait;
  for (auto& f : futures) {
    if (wait != Wait::zero() && !f->wait_until(give_up)) {
      throw Unavailable("redis: no reply within " + std::to_string(wait.count()) + " ms");
    }
    replies.push_back(f->take().take());
  }
  return replies;
}

Multiplexer::ScriptCall Multiplexer::submit_script(const Script& s, const Args& keys, const Args& args) {
  std::vector<std::string> call{"EVALSHA", s.sha(), std::to_string(keys.size())};
  call.reserve(3 + keys.size() + args.size());
  call.insert(call.end(), keys.begin(), keys.end());
  call.insert(call.end(), args.begin(), args.end());
  auto first = submit(Args(call.begin(), call.end()));
  return ScriptCall(*this, s, std::move(call), std::move(first));
}

Reply Multiplexer::ScriptCall::get(Wait wait) {
  auto reply = first_.get(wait);
  if (is_noscript(*reply)) {
    call_[0] = "EVAL";
    call_[1] = script_->source();
    reply = owner_->command(Args(call_.begin(), call_.end()), wait);
  }
  return reply;
}

Reply Multiplexer::script(const Script& s, const Args& keys, const Args& args, Wait wait) {
  return submit_script(s, keys, args).get(wait);
}

void Multiplexer::enqueue(Batch pending) {
  auto& h = held();
  if (h.owner == this) {
    for (auto& p : pending) {
      h.batch.push_back(std::move(p));
    }
    return;
  }
  send_now(std::move(pending));
}

void Multiplexer::send_now(Batch pending, bool here) {
  const auto lane = next_lane_.fetch_add(1, std::memory_order_relaxed) % lanes_.size();
  if (here) {
    lanes_[lane]->run_here(std::move(pending));
  } else {
    lanes_[lane]->enqueue(std::move(pending));
  }
}

void Multiplexer::Lane::enqueue(Batch pending) {
  {
    const std::lock_guard lock(mutex_);
    if (queue_.empty()) {
      queue_ = std::move(pending);
    } else {
      for (auto& p : pending) {
        queue_.push_back(std::move(p));
      }
    }
  }
  wake_.notify_one();
}

void Multiplexer::Lane::run_here(Batch pending) {
  {
    std::unique_lock lock(mutex_);
    if (busy_ || !queue_.empty() || stop_) {
      lock.unlock();
      enqueue(std::move(pending));
      return;
    }
    busy_ = true;
  }
  // run_batch answers every command, with a reply or a failure, and throws
  // nothing of its own; the lane is handed back whatever happens.
  struct HandBack {
    Lane& lane;
    ~HandBack() {
      bool more = false;
      {
        const std::lock_guard lock(lane.mutex_);
        lane.busy_ = false;
        more = !lane.queue_.empty();
      }
      if (more) {
        lane.wake_.notify_one();  // what came meanwhile waited for the connection
      }
    }
  } const hand_back{*this};
  run_batch(pending);
}

void Multiplexer::Lane::loop() {
  Batch batch;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return !busy_ && (stop_ || !queue_.empty()); });
      if (queue_.empty()) {
        return;
      }
      batch.swap(queue_);
      busy_ = true;
    }
    run_batch(batch);
    batch.clear();
    const std::lock_guard lock(mutex_);
    busy_ = false;
  }
}

void Multiplexer::deliver(Pending& p, Outcome outcome) {
  p.reply->set(std::move(outcome));
}

void Multiplexer::Lane::send(Batch& batch, size_t& answered) {
  if (!conn_ || conn_->broken()) {
    conn_ = std::make_unique<Connection>(endpoint_);
  }
  for (size_t i = answered; i < batch.size(); ++i) {
    conn_->append(Args(batch[i]->args.begin(), batch[i]->args.end()));
  }
  for (; answered < batch.size(); ++answered) {
    auto reply = conn_->next_reply();
    deliver(*batch[answered], Outcome{std::move(reply), nullptr});
  }
}

void Multiplexer::fail_rest(Batch& batch, size_t answered, const std::exception_ptr& failure) {
  for (size_t i = answered; i < batch.size(); ++i) {
    deliver(*batch[i], Outcome{nullptr, failure});
  }
}

void Multiplexer::Lane::run_batch(Batch& batch) {
  size_t answered = 0;
  const bool reused = conn_ != nullptr;
  try {
    send(batch, answered);
    return;
  } catch (const Unavailable&) {
    conn_.reset();
    if (!reused) {
      fail_rest(batch, answered, std::current_exception());
      return;
    }
  }
  // The connection had been idle and Redis may have restarted since: the
  // unanswered commands get one more try on a new one.
  try {
    send(batch, answered);
  } catch (...) {
    conn_.reset();
    fail_rest(batch, answered, std::current_exception());
  }
}

}  // namespace petstore::redis
